import GoalModel
import NIOCore

/// One fan-out round on a loop: one pass over every session the loop had when the round began, in slices.
///
/// A round does not carry its own copy of the changesets: each visit writes what the loop's live window holds
/// after the session's `sent`, so a batch that arrives mid-round already reaches the sessions the round has not
/// visited yet, and the others in the next round. A session that registers mid-round is not in it (it noted the
/// head when it registered); one that leaves mid-round is skipped as closing.
///
/// Threading: confined to the shard's event loop (not `Sendable`). Lifetime: from the round's first slice to its
/// last.
final class FanoutRound {
    /// The loop's head when the round began: every session visited in it has at least this revision afterwards.
    let startHead: Revision
    /// The sessions to visit, in order (the loop's sessions when the round began).
    let sessions: [SessionHandler]
    /// The next session to visit.
    var next = 0
    /// When the oldest batch this round is the first to carry to every session became durable (nil: none).
    let oldestDurable: NIODeadline?
    /// Time spent writing slices so far (not the time the loop spent on other work between them).
    var busy = TimeAmount.zero
    /// Changeset frames and bytes written so far, summed over sessions.
    var frames = 0
    var bytes = 0

    init(startHead: Revision, sessions: [SessionHandler], oldestDurable: NIODeadline?) {
        self.startHead = startHead
        self.sessions = sessions
        self.oldestDurable = oldestDurable
    }

    /// True once every session of the round was visited.
    var isFinished: Bool { next >= sessions.count }
}
