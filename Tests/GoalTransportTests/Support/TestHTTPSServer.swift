import GoalTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One request as the test HTTPS server received it.
struct ReceivedRequest: Sendable {
    var method: HTTPMethod
    var uri: String
    var headers: HTTPHeaders
    var body: [UInt8]
}

/// A scripted HTTP/1.1 server over TLS on 127.0.0.1, port 0, for HTTP client tests: every request is recorded in
/// `requests` and answered with what `answer` returns (status and body, `application/json`), then the connection
/// closes.
///
/// Threading: `Sendable`; start and shut down from async tests. Lifetime: until `shutdown()`.
final class TestHTTPSServer: Sendable {
    typealias Answer = @Sendable (ReceivedRequest) -> (status: HTTPResponseStatus, body: String)

    let port: Int
    let requests: TestInbox<ReceivedRequest>
    private let channel: any Channel

    private init(channel: any Channel, port: Int, requests: TestInbox<ReceivedRequest>) {
        self.channel = channel
        self.port = port
        self.requests = requests
    }

    static func start(answer: @escaping Answer) async throws -> TestHTTPSServer {
        let sslContext = try NIOSSLContext(configuration: TestCertificates.shared.serverTLSConfiguration)
        let requests = TestInbox<ReceivedRequest>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: sslContext))
                    try sync.configureHTTPServerPipeline()
                    try sync.addHandler(ScriptedHTTPHandler(requests: requests, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        return TestHTTPSServer(channel: channel, port: port, requests: requests)
    }

    /// Runs `body` with a fresh server answering every request `status` with `answer`, and shuts it down
    /// afterwards, on success and on error.
    static func with(
        status: HTTPResponseStatus,
        answer: String,
        _ body: (TestHTTPSServer) async throws -> Void
    ) async throws {
        let server = try await start { _ in (status, answer) }
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    func shutdown() async {
        // The listening channel may already be closed; nothing is left to release then.
        try? await channel.close().get()
    }
}

/// Collects one request and answers it from the script. Confined to its channel's event loop.
private final class ScriptedHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let requests: TestInbox<ReceivedRequest>
    private let answer: TestHTTPSServer.Answer
    private var request: ReceivedRequest?

    init(requests: TestInbox<ReceivedRequest>, answer: @escaping TestHTTPSServer.Answer) {
        self.requests = requests
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = ReceivedRequest(method: head.method, uri: head.uri, headers: head.headers, body: [])
        case .body(let buffer):
            request?.body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let request else { return }
            requests.push(request)
            let (status, body) = answer(request)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            headers.add(name: "Connection", value: "close")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                promise: nil
            )
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))),
                promise: nil
            )
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
