import NIOCore
import NIOHTTP1
import NIOPosix

/// One plain-HTTP/1.1 request per connection to a local service (chromedriver), answered as a whole: status and
/// body. NIO's parser reads what chromedriver writes; the wait is a future, never a blocked thread. Stateless.
enum PlainHTTP {
    static func request(
        host: String,
        port: Int,
        method: HTTPMethod,
        path: String,
        body: [UInt8]?,
        timeout: TimeAmount = .seconds(120)
    ) async throws -> (status: Int, body: [UInt8]) {
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: (Int, [UInt8]).self)
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
                }
            }
            .connect(host: host, port: port).get()
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        head.headers.add(name: "Connection", value: "close")
        if let body {
            head.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            head.headers.add(name: "Content-Length", value: String(body.count))
        }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let deadline = channel.eventLoop.scheduleTask(in: timeout) {
            promise.fail(WebDriverError(description: "\(method) \(path): no answer within \(timeout)"))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        let (status, bytes) = try await promise.futureResult.get()
        try? await channel.close().get()  // the server may have closed first (Connection: close)
        return (status, bytes)
    }

    /// Collects one response; fails the promise when the connection ends before the response does.
    /// Threading: a `ChannelHandler`, confined to its channel's event loop.
    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let promise: EventLoopPromise<(Int, [UInt8])>
        private var status = 0
        private var body: [UInt8] = []

        init(promise: EventLoopPromise<(Int, [UInt8])>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): status = Int(head.status.code)
            case .body(let buffer): body.append(contentsOf: buffer.readableBytesView)
            case .end: promise.succeed((status, body))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(WebDriverError(description: "the connection closed before the response ended"))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
