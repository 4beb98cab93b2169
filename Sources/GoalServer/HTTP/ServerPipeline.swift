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
///
/// Holds what the pipeline uses of the rest of the server: the connection limiter (with the refusal warning's
/// rate limit), the connections gauge, the limits, whether permessage-deflate is offered, the HTTP handler's
/// collaborators and the session's. Built once by `DaemonComposition`.
///
/// Threading: `Sendable`, immutable; its methods run on the new channel's event loop. Lifetime: the daemon's.
struct ServerPipeline: Sendable {
    /// Every session channel's write-buffer watermarks: NIO reports the channel unwritable above `high` bytes.
    static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)

    let connections: ConnectionLimiter
    /// The warning for connections refused at the total cap, at most once per 10 s.
    let refusalLog: RefusalLog
    let metrics: ServerMetrics
    /// `handshakeTimeoutMilliseconds`, `maxInboundMessageBytes`, `framesPerSecond` and `frameBurst`.
    let limits: ServerLimits
    /// Whether permessage-deflate offers are accepted (the hub has a compressor).
    let permessageDeflate: Bool
    let http: HTTPRequestHandler.Collaborators
    /// What every session shares.
    let session: SessionCollaborators
    let logger: Logger

    /// Configures a connection of the main (TLS) listener.
    func configureStream(_ channel: any Channel, tls: NIOSSLContext) -> EventLoopFuture<Void> {
        if let refusal = connections.admitConnection() {
            if let refused = refusalLog.refused(now: .now()) {
                logger.warning(
                    "refusing connections",
                    metadata: ["goal.reason": "\(refusal)", "goal.refused": "\(refused)"]
                )
            }
            return channel.close()
        }
        metrics.connections.increment()
        let remote = channel.remoteAddress?.ipAddress ?? "unknown"
        let ipRefusal = connections.admitIP(remote)
        channel.closeFuture.whenComplete { _ in
            connections.releaseConnection()
            metrics.connections.decrement()
            if ipRefusal == nil { connections.releaseIP(remote) }
        }
        let connectedAt = NIODeadline.now()
        let deadline = channel.eventLoop.scheduleTask(
            in: .milliseconds(Int64(limits.handshakeTimeoutMilliseconds))
        ) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in deadline.cancel() }

        return channel.eventLoop.makeCompletedFuture {
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(ConnectionAborter())
            try sync.addHandler(NIOSSLServerHandler(context: tls))
            let http = HTTPRequestHandler(self.http, metricsAccess: .adminToken, handshakeDeadline: deadline)
            let loopBoundHTTP = NIOLoopBound(http, eventLoop: channel.eventLoop)
            let upgrader = WebSocketUpgrader(
                maxFrameSize: limits.maxInboundMessageBytes,
                permessageDeflate: permessageDeflate
            ) { channel, deflate in
                deadline.cancel()
                try installSession(
                    on: channel,
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
                        // Runs on the channel's loop, where the handler was made.
                        context.pipeline.syncOperations.removeHandler(loopBoundHTTP.value, promise: nil)
                    }
                ),
                withErrorHandling: true
            )
            try sync.addHandler(http)
        }
    }

    /// Configures a connection of the plaintext, loopback-only metrics listener.
    func configureMetrics(_ channel: any Channel) -> EventLoopFuture<Void> {
        let http = self.http
        return channel.eventLoop.makeCompletedFuture {
            let sync = channel.pipeline.syncOperations
            try sync.configureHTTPServerPipeline(withErrorHandling: true)
            try sync.addHandler(HTTPRequestHandler(http, metricsAccess: .anyone))
        }
    }

    private func installSession(
        on channel: any Channel,
        remote: String,
        connectedAt: NIODeadline,
        deflate: Bool,
        refusal: ConnectionLimiter.Refusal?
    ) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(WebSocketFrameValidator(allowsCompressedMessages: deflate))
        try sync.addHandler(
            FloodGuardHandler(framesPerSecond: limits.framesPerSecond, burst: limits.frameBurst)
        )
        if deflate {
            try sync.addHandler(
                PerMessageInflateHandler(limit: limits.maxInboundMessageBytes, keepsInflater: false)
            )
        }
        try sync.addHandler(
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0,
                maxAccumulatedFrameCount: 256,
                maxAccumulatedFrameSize: limits.maxInboundMessageBytes
            )
        )
        let session = SessionHandler(
            collaborators: self.session,
            shardIndex: self.session.leagues.defaultLeague.hub.shard(for: channel.eventLoop).index,
            remoteAddress: remote,
            connectedAt: connectedAt,
            negotiatedDeflate: deflate,
            aborter: try sync.handler(type: ConnectionAborter.self)
        )
        try sync.addHandler(session)
        if let refusal { session.fail(.connectionLimit, refusal.description) }
    }
}
