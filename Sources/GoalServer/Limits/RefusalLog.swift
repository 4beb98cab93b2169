import NIOConcurrencyHelpers
import NIOCore

/// Rate-limits the log line for refusals at a cap (connections at the connection cap, new client instances at the
/// exactly-once table's): a flood of refusals (the very case the cap exists for) must not also flood the log. The first refusal is logged at once; later ones at
/// most once per `interval`, each line counting the refusals it stands for.
///
/// Threading: `Sendable`, lock-protected; called from every event loop. Lifetime: the daemon's.
final class RefusalLog: Sendable {
    private struct State {
        var lastLine: NIODeadline?
        var unlogged = 0
    }

    private let interval: TimeAmount
    private let state = NIOLockedValueBox(State())

    init(interval: TimeAmount = .seconds(10)) {
        self.interval = interval
    }

    /// Counts one refusal at `now`.
    /// - Returns: how many refusals a line logged now stands for, or nil when no line is due.
    func refused(now: NIODeadline) -> Int? {
        state.withLockedValue { state in
            state.unlogged += 1
            if let last = state.lastLine, now - last < interval { return nil }
            state.lastLine = now
            defer { state.unlogged = 0 }
            return state.unlogged
        }
    }
}
