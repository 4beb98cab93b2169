import GoalClient
import GoalTransport
import NIOConcurrencyHelpers
public import NIOCore
public import NIOHTTP1

/// One HTTP response as a test sees it.
///
/// Value type, `Sendable`.
public struct TestHTTPResponse: Sendable {
    /// The status code (200, 401, 404 …).
    public var status: Int
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]

    /// The body decoded as UTF-8.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Plain HTTPS requests for tests (`/healthz`, `/metrics`, 404s), over the same TLS setup as `WebSocketTransport`.
///
/// Stateless; thread-safe. Each request uses its own connection (`Connection: close`).
public enum TestHTTPSClient {
    /// Sends one request and reads the whole response.
    ///
    /// - Parameters:
    ///   - connector: Host, port and trust; `path` is the request path.
    ///   - method: The HTTP method. Default GET.
    ///   - path: The request path, for example `/healthz`.
    ///   - headers: Extra request headers (for example `Authorization`).
    ///   - body: A request body, sent with its `Content-Length` (the HTTP API's JSON).
    ///   - contentType: The body's `Content-Type`; nil sends none.
    ///   - timeout: A guard against hangs.
    /// - Returns: The response.
    /// - Throws: `TransportFailure` when the connection or TLS fails, or the server closes without answering.
    public static func request(
        _ connector: TestTLSConnector,
        method: HTTPMethod = .GET,
        path: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil,
        contentType: String? = "application/json",
        timeout: TimeAmount = .seconds(10)
    ) async throws -> TestHTTPResponse {
        let box = NIOLockedValueBox<EventLoopPromise<TestHTTPResponse>?>(nil)
        let channel: any Channel
        do {
            channel = try await connector.connect { channel, observer in
                let promise = channel.eventLoop.makePromise(of: TestHTTPResponse.self)
                box.withLockedValue { $0 = promise }
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(
                    ResponseCollector(promise: promise) { error in connector.failure(for: error, observer: observer) }
                )
            }
        } catch {
            // The initializer may have run on a channel that never connected (refused): complete its promise.
            box.withLockedValue { $0 }?.fail(error)
            throw error
        }
        guard let promise = box.withLockedValue({ $0 }) else { preconditionFailure("initializer did not run") }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: connector.endpoint.hostHeader)
        head.headers.add(name: "Connection", value: "close")
        for header in headers { head.headers.add(name: header.name, value: header.value) }
        if let body {
            if let contentType { head.headers.add(name: "Content-Type", value: contentType) }
            head.headers.add(name: "Content-Length", value: String(body.count))
        }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let deadline = channel.eventLoop.scheduleTask(in: timeout) {
            promise.fail(TransportFailure(.timeout, "no HTTP response within \(timeout)"))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        let response = try await promise.futureResult.get()
        // The response is complete; the server may already have closed the connection.
        try? await channel.close().get()
        return response
    }

    /// `GET path`.
    public static func get(
        _ connector: TestTLSConnector,
        path: String,
        headers: [(name: String, value: String)] = []
    ) async throws -> TestHTTPResponse {
        try await request(connector, method: .GET, path: path, headers: headers)
    }
}

/// Collects one HTTP response and completes the promise at its end (or fails it when the connection ends first).
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<TestHTTPResponse>
    private let classify: (any Error) -> TransportFailure
    private var response: TestHTTPResponse?
    private var firstError: (any Error)?

    init(promise: EventLoopPromise<TestHTTPResponse>, classify: @escaping (any Error) -> TransportFailure) {
        self.promise = promise
        self.classify = classify
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            response = TestHTTPResponse(
                status: Int(head.status.code),
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: []
            )
        case .body(let buffer):
            response?.body.append(contentsOf: buffer.readableBytesView)
        case .end:
            if let response { promise.succeed(response) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if firstError == nil { firstError = error }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(
            firstError.map(classify)
                ?? TransportFailure(.cannotConnect, "the server closed the connection without a complete response")
        )
        context.fireChannelInactive()
    }
}
