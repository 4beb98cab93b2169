import CoreMetrics
import GoalDeflate
import GoalWire
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket

/// Builds each accepted connection's pipeline: TLS → HTTP/1.1 with `WebSocketUpgrader` → on upgrade, the frame
/// decoder, the frame validator, `FloodGuardHandler`, the permessage-deflate inflater (when negotiated), the fragment
/// aggregator and `SessionHandler` (no frame encoder: the session writes
/// pre-framed bytes so fan-out shares one buffer).
///
/// Also enforces what must happen before any session exists: the total connection cap (closed at once, before
/// TLS: past it the process is near its file limit), the per-IP cap (the upgrade completes so the client learns
/// why: `error{connection_limit}` + 4002), and the handshake deadline until `SessionHandler` takes it over.
/// Stateless; called on the new channel's event loop.
enum ServerPipeline {
    /// Configures a connection of the main (TLS) listener.
    static func configureStream(_ channel: any Channel, core: ServerCore, tls: NIOSSLContext) -> EventLoopFuture<Void> {
        if let refusal = core.connections.admitConnection() {
            if let refused = core.refusalLog.refused(now: .now()) {
                core.logger.warning(
                    "refusing connections",
                    metadata: ["goal.reason": "\(refusal)", "goal.refused": "\(refused)"]
                )
            }
            return channel.close()
        }
        core.metrics.connections.increment()
        let remote = channel.remoteAddress?.ipAddress ?? "unknown"
        let ipRefusal = core.connections.admitIP(remote)
        channel.closeFuture.whenComplete { _ in
            core.connections.releaseConnection()
            core.metrics.connections.decrement()
            if ipRefusal == nil { core.connections.releaseIP(remote) }
        }
        let connectedAt = NIODeadline.now()
        let deadline = channel.eventLoop.scheduleTask(
            in: .milliseconds(Int64(core.limits.handshakeTimeoutMilliseconds))
        ) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in deadline.cancel() }

        return channel.eventLoop.makeCompletedFuture {
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(ConnectionAborter())
            try sync.addHandler(NIOSSLServerHandler(context: tls))
            let http = HTTPRequestHandler(core: core, metricsAccess: .adminToken, handshakeDeadline: deadline)
            let upgrader = WebSocketUpgrader(
                maxFrameSize: core.limits.maxInboundMessageBytes,
                permessageDeflate: core.hub.compression != nil
            ) { channel, deflate in
                deadline.cancel()
                try installSession(
                    on: channel,
                    core: core,
                    remote: remote,
                    connectedAt: connectedAt,
                    deflate: deflate,
                    refusal: ipRefusal
                )
            }
            try sync.configureHTTPServerPipeline(
                withServerUpgrade: (
                    upgraders: [upgrader],
                    completionHandler: { context in
                        context.pipeline.syncOperations.removeHandler(http, promise: nil)
                    }
                ),
                withErrorHandling: true
            )
            try sync.addHandler(http)
        }
    }

    /// Configures a connection of the plaintext, loopback-only metrics listener.
    static func configureMetrics(_ channel: any Channel, core: ServerCore) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            let sync = channel.pipeline.syncOperations
            try sync.configureHTTPServerPipeline(withErrorHandling: true)
            try sync.addHandler(HTTPRequestHandler(core: core, metricsAccess: .anyone))
        }
    }

    private static func installSession(
        on channel: any Channel,
        core: ServerCore,
        remote: String,
        connectedAt: NIODeadline,
        deflate: Bool,
        refusal: ConnectionLimiter.Refusal?
    ) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(WebSocketFrameValidator(allowsCompressedMessages: deflate))
        try sync.addHandler(
            FloodGuardHandler(framesPerSecond: core.limits.framesPerSecond, burst: core.limits.frameBurst)
        )
        if deflate {
            try sync.addHandler(
                PerMessageInflateHandler(limit: core.limits.maxInboundMessageBytes, keepsInflater: false)
            )
        }
        try sync.addHandler(
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0,
                maxAccumulatedFrameCount: 256,
                maxAccumulatedFrameSize: core.limits.maxInboundMessageBytes
            )
        )
        let session = SessionHandler(
            core: core,
            shard: core.hub.shard(for: channel.eventLoop),
            remoteAddress: remote,
            connectedAt: connectedAt,
            negotiatedDeflate: deflate,
            aborter: try sync.handler(type: ConnectionAborter.self)
        )
        try sync.addHandler(session)
        if let refusal { session.fail(.connectionLimit, refusal.description) }
    }
}
