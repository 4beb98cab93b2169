import GoalClient
import GoalModel
import GoalWire

/// The mutable state of one subscriber beside its `ResumeDriver`'s machine (which holds the position), guarded by
/// that driver's lock.
///
/// Value type; only touched with that lock held.
struct SubscriberState: Sendable {
    /// Where the subscriber is in its connection's life.
    enum Phase: Sendable, Equatable {
        /// Not connected (before the first attempt, or closed on purpose).
        case idle
        /// Hello sent, welcome not yet seen.
        case connecting
        /// Welcomed: changesets flow (backlog or live).
        case live
        /// The last attempt failed or the connection dropped; a reconnect may follow.
        case down
    }

    var phase = Phase.idle
    /// Lean subscribers skip snapshot chunks between snapshot_begin and snapshot_end.
    var inSnapshot = false
    /// Sampled subscribers only: the full replica and the snapshot being assembled.
    var replica: ReplicaState?
    var assembler: SnapshotAssembler?
    /// When the current connection's hello went out and when its caught_up (or snapshot end / live welcome)
    /// arrived, on `MonotonicClock`.
    var helloSentAt: UInt64 = 0
    var caughtUpAt: UInt64?
    var everConnected = false
    var deliveries = 0
    var bytes = 0
    var reconnects = 0
    var failedAttempts = 0
    /// Snapshots received (a resume the server could not serve from its log).
    var snapshots = 0
    /// Reconnect-class server errors (slow consumer 4008, overloaded, shutting down) received.
    var sheddings = 0
    /// Protocol violations seen (gaps, duplicates, digest breaks, server errors), at most a few kept.
    var problems: [String] = []
    var problemCount = 0

    mutating func note(_ problem: String) {
        problemCount += 1
        if problems.count < 5 { problems.append(problem) }
    }
}

/// A point-in-time copy of a subscriber's counters, for progress lines and the report.
struct SubscriberSnapshot: Sendable {
    var phase: SubscriberState.Phase
    var revision: UInt64
    var digest: Digest
    var deliveries: Int
    var bytes: Int
    var reconnects: Int
    var failedAttempts: Int
    var sheddings: Int
    var everConnected: Bool
    var problems: [String]
    var problemCount: Int
    var replica: ReplicaState?
    var catchUpSeconds: Double?
    /// Snapshots received.
    var snapshots = 0
    /// The node (an index into the run's URLs) the subscriber is on, or will resume on.
    var server = 0
}
