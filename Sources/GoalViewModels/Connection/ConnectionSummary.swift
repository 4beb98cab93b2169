import Foundation
import GoalClient

/// The status line's words for a connection status, with a reconnect countdown in whole seconds: "live",
/// "connecting", "connecting (retry 2)", "syncing", "reconnecting in 3 s (retry 2)", "reconnecting now",
/// "stopped: …". The round-trip time is not part of it (the status line shows it once, on its own).
/// Pure functions.
enum ConnectionSummary {
    /// - Parameters:
    ///   - status: The client's status.
    ///   - remaining: Seconds left before the next retry while reconnecting.
    /// - Returns: The words.
    static func text(_ status: ConnectionStatus, remaining: TimeInterval) -> String {
        switch status {
        case .idle, .connecting(0): "connecting"
        case .connecting(let attempt): "connecting (retry \(attempt))"
        case .syncing: "syncing"
        case .live: "live"
        case .reconnecting(let attempt, _):
            remaining > 0 ? "reconnecting in \(seconds(remaining)) s (retry \(attempt))" : "reconnecting now"
        case .stopped(let reason): "stopped: \(reason)"
        }
    }

    /// Whole seconds left, rounded up (0.2 s left reads "1 s", never "0 s").
    static func seconds(_ remaining: TimeInterval) -> Int {
        Int(((remaining * 1000).rounded() / 1000).rounded(.up))
    }
}
