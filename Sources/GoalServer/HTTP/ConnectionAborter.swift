import NIOCore
import NIOPosix

/// First in every stream pipeline, in front of TLS: `abort()` resets the connection from here, below the TLS
/// handler. A close from further up goes through `NIOSSLHandler`, which sends close_notify behind everything still
/// queued and then waits up to 5 s for the peer's answer; a slow consumer that stopped reading never answers, so
/// its connection would outlive the documented slow-consumer grace by those 5 s and end with a FIN. NIO has no call
/// that closes beneath a handler, so this handler is the place to close from; with SO_LINGER 0 the kernel drops
/// what the peer never read and sends RST at once.
///
/// Threading: confined to its channel's event loop (not `Sendable`). Lifetime: the channel's.
final class ConnectionAborter: ChannelInboundHandler {
    // NIO wants every handler to be inbound or outbound. Inbound: socket reads pass through it untouched (the
    // default `channelRead`), and writes, the fan-out's hot path, skip it entirely.
    typealias InboundIn = ByteBuffer

    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Resets the connection now: pending writes fail, queued bytes are dropped, the peer sees RST.
    func abort() {
        guard let context else { return }
        let close = { context.close(mode: .all, promise: nil) }
        guard let socket = context.channel as? any SocketOptionProvider else {
            close()
            return
        }
        // Best effort: a channel that cannot take the option is still closed, with a FIN.
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in close() }
    }
}
