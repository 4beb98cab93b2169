import GoalDeflate
import GoalTestSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A scriptable WebSocket server over TLS on 127.0.0.1, port 0, for transport tests.
///
/// `/v1/stream` upgrades; `/v1/eager` upgrades and sends the text "welcome" at once (in the same flight as the 101);
/// `/v1/deflate` upgrades accepting permessage-deflate as goald does; `/v1/bogus-extension` upgrades answering an
/// extension nobody offered; `/forbidden` is refused with 403; `GET /healthz` answers 200 "ok"; anything else 404.
/// On a WebSocket, text messages are commands (see `ServerFrameHandler`), anything else is echoed. What the server
/// observes (close codes, pongs, unmasked frames) is pushed to `observed`.
///
/// Threading: `Sendable`; start and shut down from async tests. Lifetime: until `shutdown()`.
final class TestWebSocketServer: Sendable {
    let port: Int
    /// What the server saw, as short strings ("close:1000", "pong:abc", "unmasked").
    let observed: TestInbox<String>
    /// The remote IP address of every accepted connection, in accept order.
    let peers: TestInbox<String>
    /// The head of every upgrade request, in arrival order.
    let upgradeRequests: TestInbox<HTTPRequestHead>
    private let channel: any Channel

    private init(
        channel: any Channel,
        port: Int,
        observed: TestInbox<String>,
        peers: TestInbox<String>,
        upgradeRequests: TestInbox<HTTPRequestHead>
    ) {
        self.channel = channel
        self.port = port
        self.observed = observed
        self.peers = peers
        self.upgradeRequests = upgradeRequests
    }

    static func start(
        host: String = "127.0.0.1",
        certificates: TestCertificates = .shared
    ) async throws -> TestWebSocketServer {
        let sslContext = try NIOSSLContext(configuration: certificates.serverTLSConfiguration)
        let observed = TestInbox<String>()
        let peers = TestInbox<String>()
        let upgradeRequests = TestInbox<HTTPRequestHead>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    peers.push(channel.remoteAddress?.ipAddress ?? "?")
                    try configure(channel, sslContext: sslContext, observed: observed, upgradeRequests: upgradeRequests)
                }
            }
            .bind(host: host, port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        return TestWebSocketServer(
            channel: channel,
            port: port,
            observed: observed,
            peers: peers,
            upgradeRequests: upgradeRequests
        )
    }

    func shutdown() async {
        try? await channel.close().get()
    }

    private static func configure(
        _ channel: any Channel,
        sslContext: NIOSSLContext,
        observed: TestInbox<String>,
        upgradeRequests: TestInbox<HTTPRequestHead>
    ) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(NIOSSLServerHandler(context: sslContext))
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                upgradeRequests.push(head)
                var headers = HTTPHeaders()
                switch head.uri {
                case "/v1/stream", "/v1/eager":
                    break
                case "/v1/deflate":
                    let offers = head.headers["sec-websocket-extensions"]
                    if let answer = PerMessageDeflate.serverResponse(toOffers: offers) {
                        headers.add(name: "Sec-WebSocket-Extensions", value: answer)
                    }
                case "/v1/bogus-extension":
                    headers.add(name: "Sec-WebSocket-Extensions", value: "x-bogus")
                default:
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return channel.eventLoop.makeSucceededFuture(headers)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    _ = sync.removeHandler(name: PlainHTTPHandler.name)
                    try sync.addHandler(MaskCheckHandler(observed: observed))
                    try sync.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0,
                            maxAccumulatedFrameCount: 1024,
                            maxAccumulatedFrameSize: 1 << 24
                        )
                    )
                    let greeting = head.uri == "/v1/eager" ? "welcome" : nil
                    try sync.addHandler(ServerFrameHandler(observed: observed, greeting: greeting))
                }
            }
        )
        try sync.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        )
        try sync.addHandler(PlainHTTPHandler(), name: PlainHTTPHandler.name)
    }
}

enum TestServerError: Error {
    case noPort
}

/// Answers requests that were not upgraded: 403 for `/forbidden`, 200 for `/healthz`, else 404.
final class PlainHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "test.plain-http"
    private var uri = ""

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NIO's protocol error handler has already answered 400; end the connection like a real server would.
        // (A declined upgrade is also reported here; the request then arrives as a plain request.)
        if error is HTTPParserError {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            uri = head.uri
        case .body:
            break
        case .end:
            let (status, body): (HTTPResponseStatus, String) =
                switch uri {
                case "/forbidden": (.forbidden, "forbidden")
                case "/healthz": (.ok, "ok")
                default: (.notFound, "not found")
                }
            var headers = HTTPHeaders()
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
