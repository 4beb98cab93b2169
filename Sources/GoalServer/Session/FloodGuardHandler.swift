import NIOCore
import NIOWebSocket

/// Counts every inbound WebSocket frame (fragments, pings and pongs too) against the session's flood bucket and
/// raises `SessionInboundError.flood` into the pipeline when it runs dry; the session then closes with 4029.
/// Sits between the frame decoder and the fragment aggregator, so fragments count one by one.
///
/// Threading: confined to its channel's event loop. Lifetime: one per upgraded connection.
final class FloodGuardHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var bucket: TokenBucket
    private var tripped = false

    init(framesPerSecond: Double, burst: Double) {
        self.bucket = TokenBucket(rate: framesPerSecond, capacity: burst, now: .now())
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !tripped else { return }
        guard bucket.take(now: .now()) else {
            tripped = true
            context.fireErrorCaught(SessionInboundError.flood)
            return
        }
        context.fireChannelRead(data)
    }
}
