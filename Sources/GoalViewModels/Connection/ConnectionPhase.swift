public import GoalClient

/// The connection state as a UI shows it at a glance: a phase with its own colour and a text marker that reads
/// the same without colour (NO_COLOR). Value type, `Sendable`.
public enum ConnectionPhase: Hashable, Sendable {
    /// Caught up: changes arrive live.
    case live
    /// Opening a connection or catching up (the data shown may be stale).
    case connecting
    /// Lost; waiting to retry (the data shown is stale).
    case reconnecting
    /// Stopped for good until the user reconnects (the data shown is stale).
    case stopped

    /// The phase of a client status.
    /// - Parameter status: The client's status.
    public init(_ status: ConnectionStatus) {
        switch status {
        case .live: self = .live
        case .idle, .connecting, .syncing: self = .connecting
        case .reconnecting: self = .reconnecting
        case .stopped: self = .stopped
        }
    }

    /// A text marker that carries the phase without colour: "[LIVE]", "[CONNECTING]", "[RECONNECTING]",
    /// "[STOPPED]".
    public var marker: String {
        switch self {
        case .live: "[LIVE]"
        case .connecting: "[CONNECTING]"
        case .reconnecting: "[RECONNECTING]"
        case .stopped: "[STOPPED]"
        }
    }

    /// True when the data shown may be out of date (every phase but `live`).
    public var isStale: Bool { self != .live }
}
