public import Foundation
public import GoalWire

/// Where a `GoalClient`'s connection stands. Value type, `Sendable`; the client publishes it as a `Property`.
public enum ConnectionStatus: Hashable, Sendable, CustomStringConvertible {
    /// Not started yet.
    case idle
    /// Opening a connection: `attempt` 0 is the first try after `start`, n the n-th retry since the last `welcome`.
    case connecting(attempt: Int)
    /// Connected and authenticated; receiving a backlog or a snapshot.
    case syncing
    /// Caught up: every changeset now arrives live. `roundTrip` is the last ping's round-trip time, if any.
    case live(roundTrip: TimeInterval?)
    /// The connection was lost; retry `attempt` (1, 2, …) starts after `delay` seconds.
    case reconnecting(attempt: Int, delay: TimeInterval)
    /// The client stopped and will not reconnect by itself.
    case stopped(StopReason)

    /// True while caught up with the server.
    public var isLive: Bool {
        if case .live = self { return true }
        return false
    }

    /// True once stopped.
    public var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting(let attempt): attempt == 0 ? "connecting" : "connecting (retry \(attempt))"
        case .syncing: "syncing"
        case .live(let roundTrip):
            roundTrip.map { "live (\(Int(($0 * 1000).rounded())) ms)" } ?? "live"
        case .reconnecting(let attempt, let delay):
            "reconnecting in \(ConnectionStatus.seconds(delay)) s (retry \(attempt))"
        case .stopped(let reason): "stopped: \(reason)"
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Why a client stopped. Value type, `Sendable`; `description` tells the user what to do.
public enum StopReason: Hashable, Sendable, CustomStringConvertible {
    /// `stop()` was called.
    case requested
    /// The server closed with a terminal code (4400–4499 and the RFC 6455 protocol-violation codes); reconnecting
    /// would fail the same way. `message` is the server's `error` message when one preceded the close.
    case terminal(code: CloseCode, message: String)
    /// The connection could not be opened and retrying will not help (a TLS failure): the failure's kind and
    /// message (`TransportFailure`).
    case transportFailed(kind: TransportFailure.Kind, message: String)

    /// The close code for a terminal stop.
    public var closeCode: CloseCode? {
        if case .terminal(let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .requested: "stopped by the client"
        case .terminal(let code, let message):
            message.isEmpty ? "the server closed the connection: \(code)" : "\(message) (\(code))"
        case .transportFailed(let kind, let message): "cannot connect: \(kind.rawValue): \(message)"
        }
    }
}
