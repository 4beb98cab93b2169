import GoalClient
import GoalTransport
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Carries the upgrade promise out of a channel initializer.
///
/// Threading: guarded by its lock (set on the event loop, read by the connecting task).
final class UpgradeBox: Sendable {
    private let promise = NIOLockedValueBox<EventLoopPromise<HTTPResponseHead>?>(nil)

    func set(_ value: EventLoopPromise<HTTPResponseHead>) {
        promise.withLockedValue { $0 = value }
    }

    var value: EventLoopPromise<HTTPResponseHead>? {
        promise.withLockedValue { $0 }
    }
}

/// Sends the upgrade request once TCP is up and fails the upgrade promise with a `TransportFailure` when the server
/// refuses, TLS fails or the connection closes first. Removed on a successful upgrade.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop.
final class TestUpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "goal.test.upgrade-request"

    private let endpoint: ServerEndpoint
    private let headers: [(name: String, value: String)]
    private let promise: EventLoopPromise<HTTPResponseHead>
    private let classify: (any Error) -> TransportFailure
    private var firstError: (any Error)?

    init(
        endpoint: ServerEndpoint,
        headers: [(name: String, value: String)],
        promise: EventLoopPromise<HTTPResponseHead>,
        classify: @escaping (any Error) -> TransportFailure
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.promise = promise
        self.classify = classify
    }

    func channelActive(context: ChannelHandlerContext) {
        var requestHeaders = HTTPHeaders()
        requestHeaders.add(name: "Host", value: endpoint.hostHeader)
        for header in headers { requestHeaders.add(name: header.name, value: header.value) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: endpoint.path, headers: requestHeaders)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        promise.fail(
            TransportFailure(.upgradeRejected, "HTTP \(head.status.code) \(head.status.reasonPhrase)")
        )
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if firstError == nil { firstError = error }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let failure =
            firstError.map(classify)
            ?? TransportFailure(.cannotConnect, "connection closed before the WebSocket upgrade completed")
        promise.fail(failure)
        context.fireChannelInactive()
    }
}

/// Turns inbound frames into `TestWebSocketClient.Received` values; answers the server's close frame with a close
/// frame (unless the test sent one first) and closes the connection, but never answers pings.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop.
final class TestFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let inbox: TestInbox<TestWebSocketClient.Received>
    private var closed = false
    private var sentClose = false

    init(inbox: TestInbox<TestWebSocketClient.Received>) {
        self.inbox = inbox
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let bytes = Array(frame.unmaskedData.readableBytesView)
        if frame.rsv1, frame.opcode == .text || frame.opcode == .binary {
            inbox.push(.compressed(bytes))
            return
        }
        switch frame.opcode {
        case .text: inbox.push(.text(bytes))
        case .binary: inbox.push(.binary(bytes))
        case .ping: inbox.push(.ping(bytes))
        case .pong: inbox.push(.pong(bytes))
        case .connectionClose:
            let payload = CloseFramePayload(decoding: frame.unmaskedData)
            end(.closed(code: payload.code, reason: payload.reason))
            guard !sentClose else {
                context.close(promise: nil)
                return
            }
            sentClose = true
            let echo = WebSocketFrame(
                fin: true,
                opcode: .connectionClose,
                maskKey: .random(),
                data: CloseFramePayload(code: payload.code).encoded(allocator: context.channel.allocator)
            )
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
        default:
            end(.closed(code: nil, reason: "client saw unexpected opcode \(frame.opcode)"))
            context.close(promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if unwrapOutboundIn(data).opcode == .connectionClose { sentClose = true }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(.closed(code: nil, reason: "client-side error: \(error)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(.closed(code: nil, reason: "connection dropped"))
        context.fireChannelInactive()
    }

    private func end(_ received: TestWebSocketClient.Received) {
        guard !closed else { return }
        closed = true
        inbox.push(received)
        inbox.finish()
    }
}
