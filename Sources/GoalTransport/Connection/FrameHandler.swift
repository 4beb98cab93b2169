import NIOCore
import NIOWebSocket

/// The WebSocket stage of a connection, last in the pipeline after `NIOWebSocketFrameAggregator`: hands inbound
/// frames and errors to the core and gives it the context it writes frames through.
///
/// Threading: a `ChannelHandler`, confined to its channel's event loop, like the core it reports to.
final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let core: ConnectionCore

    init(core: ConnectionCore) {
        self.core = core
    }

    func handlerAdded(context: ChannelHandlerContext) {
        core.frameContext = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        core.frameContext = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        core.received(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        core.streamError(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        core.channelInactive()
        context.fireChannelInactive()
    }
}
