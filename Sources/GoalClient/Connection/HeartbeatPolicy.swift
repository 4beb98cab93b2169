public import Foundation
public import GoalWire

/// How a stream client watches its connection: a ping every `pingInterval` (its pong gives the round-trip time) and
/// the peer counted dead after `idleTimeout` without any inbound frame (PROTOCOL.md: 40 s, the server's own rule).
///
/// The one place heartbeat timing is defined: `ClientConfiguration`'s defaults, `ResumeSession`'s idle timeout and
/// `ResumeDriver` (GoalClient, `goal-client tail`) read it. goal-load runs without one (its connections are measured,
/// not watched). Value type, `Sendable`.
public struct HeartbeatPolicy: Hashable, Sendable {
    /// Seconds between client pings while connected.
    public var pingInterval: TimeInterval
    /// Seconds without any inbound frame after which the peer is dead.
    public var idleTimeout: TimeInterval

    /// Creates a policy.
    /// - Parameters:
    ///   - pingInterval: Default 15 s.
    ///   - idleTimeout: Default `WireProtocol.idleTimeoutSeconds` (40 s).
    public init(
        pingInterval: TimeInterval = 15,
        idleTimeout: TimeInterval = TimeInterval(WireProtocol.idleTimeoutSeconds)
    ) {
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
    }

    /// A ping every 15 s; dead after 40 s of silence.
    public static let standard = HeartbeatPolicy()
}
