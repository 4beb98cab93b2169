import GoalClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTP/1.1 request to goald's HTTP API and its whole answer.
struct HTTPSRequest: Sendable {
    var method: HTTPMethod
    /// The request target, for example `/api/v1/leagues`.
    var path: String
    /// The `Authorization: Bearer` token, if any.
    var bearerToken: String?
    /// A JSON body, sent with `Content-Type: application/json`; nil sends none.
    var jsonBody: [UInt8]?
}

/// The status and whole body of an answer.
struct HTTPSResponse: Sendable, Equatable {
    var status: Int
    var body: [UInt8]
}

/// Why an exchange ended without a whole answer, before classification into a `TransportFailure`.
enum HTTPSExchangeFailure: Error {
    /// The connection closed before the answer ended.
    case closedEarly
    /// The answer's body is over the limit.
    case tooLarge(limit: Int)
    /// No whole answer within the exchange's timeout.
    case timedOut(TimeAmount)
}

/// One request over one fresh TLS connection (`Connection: close`), then the connection closes: the state of that
/// exchange and every decision about it.
///
/// Threading: confined to `eventLoop` (made there by `perform`, reached by its handler and timer there).
/// Lifetime: referenced by its channel's handler and its timer until `promise` completes, exactly once.
final class HTTPSExchange {
    private let eventLoop: any EventLoop
    private let promise: EventLoopPromise<HTTPSResponse>
    private let observer = TLSHandshakeObserver()
    private var channel: (any Channel)?
    private var timer: Scheduled<Void>?
    private var done = false

    private init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.promise = eventLoop.makePromise()
    }

    /// Performs `request` against `endpoint`'s host and port.
    ///
    /// - Parameters:
    ///   - timeout: Bounds the whole exchange: TCP, TLS, request and the whole answer.
    ///   - maxBodyBytes: The largest answer body accepted.
    /// - Returns: The answer, whatever its status.
    /// - Throws: `TransportFailure` classified as `WebSocketTransport`'s failures are (`FailureClassifier`).
    static func perform(
        _ request: HTTPSRequest,
        endpoint: ServerEndpoint,
        tls: ClientTLSContext,
        group: any EventLoopGroup,
        timeout: TimeAmount,
        maxBodyBytes: Int
    ) async throws(TransportFailure) -> HTTPSResponse {
        let eventLoop = group.next()
        let future = eventLoop.flatSubmit {
            let exchange = HTTPSExchange(eventLoop: eventLoop)
            return exchange.start(
                request,
                endpoint: endpoint,
                tls: tls,
                timeout: timeout,
                maxBodyBytes: maxBodyBytes
            )
        }
        do {
            return try await future.get()
        } catch let failure as TransportFailure {
            throw failure
        } catch {
            throw TransportFailure(.cannotConnect, "request to \(endpoint.hostHeader) failed: \(error)")
        }
    }

    private func start(
        _ request: HTTPSRequest,
        endpoint: ServerEndpoint,
        tls: ClientTLSContext,
        timeout: TimeAmount,
        maxBodyBytes: Int
    ) -> EventLoopFuture<HTTPSResponse> {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        timer = eventLoop.scheduleTask(in: timeout) {
            bound.value.fail(HTTPSExchangeFailure.timedOut(timeout))
        }
        let bootstrap = ClientBootstrap(group: eventLoop).connectTimeout(timeout).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let sync = channel.pipeline.syncOperations
                try sync.addHandler(tls.makeHandler(for: endpoint, observer: bound.value.observer))
                try sync.addHTTPClientHandlers()
                try sync.addHandler(
                    HTTPSResponseCollector(
                        exchange: bound.value,
                        request: request,
                        hostHeader: endpoint.hostHeader,
                        maxBodyBytes: maxBodyBytes
                    )
                )
            }
        }
        let connected: EventLoopFuture<any Channel>
        // An IP literal needs no resolver; a host name (or an unparsable literal) goes through it.
        if endpoint.hostIsIPAddress, let address = try? SocketAddress(ipAddress: endpoint.host, port: endpoint.port) {
            connected = bootstrap.connect(to: address)
        } else {
            connected = bootstrap.connect(host: endpoint.host, port: endpoint.port)
        }
        connected.whenComplete { result in
            switch result {
            case .success(let channel): bound.value.connected(channel)
            case .failure(let error): bound.value.fail(error)
            }
        }
        let security = tls.security
        return promise.futureResult.flatMapErrorThrowing { error in
            throw bound.value.classify(error, endpoint: endpoint, security: security)
        }
    }

    /// True for events from the channel this exchange settled on. Connecting to a host name may try several
    /// addresses (happy eyeballs), each attempt with its own handlers reporting here; until one wins, all count.
    func isCurrent(_ channel: any Channel) -> Bool {
        self.channel.map { $0 === channel } ?? true
    }

    private func connected(_ channel: any Channel) {
        self.channel = channel
        if done { channel.close(promise: nil) }
    }

    /// The whole answer arrived.
    func succeed(_ response: HTTPSResponse) {
        guard !done else { return }
        done = true
        timer?.cancel()
        promise.succeed(response)
        channel?.close(promise: nil)
    }

    /// The exchange ended without a whole answer; later reports (an unclean TLS shutdown after the answer) are
    /// ignored.
    func fail(_ error: any Error) {
        guard !done else { return }
        done = true
        timer?.cancel()
        promise.fail(error)
        channel?.close(promise: nil)
    }

    private func classify(
        _ error: any Error,
        endpoint: ServerEndpoint,
        security: TransportSecurity
    ) -> TransportFailure {
        switch error {
        case HTTPSExchangeFailure.closedEarly:
            if observer.pinMismatch != nil {
                return FailureClassifier.failure(for: error, endpoint: endpoint, security: security, observer: observer)
            }
            return TransportFailure(.cannotConnect, "\(endpoint.hostHeader) closed the connection before answering")
        case HTTPSExchangeFailure.tooLarge(let limit):
            return TransportFailure(.cannotConnect, "\(endpoint.hostHeader) answered more than \(limit) bytes")
        case HTTPSExchangeFailure.timedOut(let amount):
            let millis = amount.nanoseconds / 1_000_000
            return TransportFailure(.timeout, "no answer from \(endpoint.hostHeader) within \(millis) ms")
        default:
            return FailureClassifier.failure(for: error, endpoint: endpoint, security: security, observer: observer)
        }
    }
}

/// Sends the request once the channel is active (TLS buffers it until the handshake is done) and collects the
/// answer for its exchange.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop, like its exchange.
final class HTTPSResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let exchange: HTTPSExchange
    private let request: HTTPSRequest
    private let hostHeader: String
    private let maxBodyBytes: Int
    private var status: Int?
    private var body: [UInt8] = []

    init(exchange: HTTPSExchange, request: HTTPSRequest, hostHeader: String, maxBodyBytes: Int) {
        self.exchange = exchange
        self.request = request
        self.hostHeader = hostHeader
        self.maxBodyBytes = maxBodyBytes
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        headers.add(name: "Accept", value: "application/json")
        headers.add(name: "Connection", value: "close")
        if let token = request.bearerToken {
            headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        let body = request.jsonBody
        if body != nil {
            headers.add(name: "Content-Type", value: "application/json")
        }
        headers.add(name: "Content-Length", value: String(body?.count ?? 0))
        let head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body, !body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))),
                promise: nil
            )
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard exchange.isCurrent(context.channel) else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= maxBodyBytes else {
                exchange.fail(HTTPSExchangeFailure.tooLarge(limit: maxBodyBytes))
                return
            }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let status else {
                exchange.fail(HTTPSExchangeFailure.closedEarly)
                return
            }
            exchange.succeed(HTTPSResponse(status: status, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard exchange.isCurrent(context.channel) else { return }
        exchange.fail(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if exchange.isCurrent(context.channel) {
            exchange.fail(HTTPSExchangeFailure.closedEarly)
        }
        context.fireChannelInactive()
    }
}
