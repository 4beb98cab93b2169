import GoalModel
import NIOCore

/// The bookkeeping of one fan-out round on a loop: one pass of the shard's cursor over every session it had when
/// the round began, in slices.
///
/// A round does not carry its own copy of the changesets: each visit writes what the loop's live window holds
/// after the session's `sent`, so a batch that arrives mid-round already reaches the sessions the cursor has not
/// visited yet, and the others in the next round.
///
/// Threading: confined to the shard's event loop (not `Sendable`). Lifetime: from the round's first slice to its
/// last.
final class FanoutRound {
    /// The loop's head when the round began: every session visited in it has at least this revision afterwards.
    let startHead: Revision
    /// Visits left (the sessions the loop had when the round began).
    var remaining: Int
    /// When the oldest batch this round is the first to carry to every session became durable (nil: none).
    let oldestDurable: NIODeadline?
    /// Time spent writing slices so far (not the time the loop spent on other work between them).
    var busy = TimeAmount.zero
    /// Changeset frames and bytes written so far, summed over sessions.
    var frames = 0
    var bytes = 0

    init(startHead: Revision, sessions: Int, oldestDurable: NIODeadline?) {
        self.startHead = startHead
        self.remaining = sessions
        self.oldestDurable = oldestDurable
    }

    /// True once the cursor has made its pass.
    var isFinished: Bool { remaining <= 0 }
}
