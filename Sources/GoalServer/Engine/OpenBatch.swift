import GoalModel
import GoalStore
import GoalWire

/// What the engine has decided since the last batch went to the writer: commits (with their frames), the client
/// instances whose exactly-once records changed or were forgotten, and the answers to send once the batch is
/// durable.
///
/// Value type, confined to the engine queue.
struct OpenBatch {
    var commits: [LoggedCommit] = []
    var touchedInstances: Set<ClientInstanceID> = []
    var forgottenInstances: Set<ClientInstanceID> = []
    var replies: [DecidedReply] = []

    var isEmpty: Bool { !needsWrite && replies.isEmpty }
    /// True when the store has something to write (replies alone need no transaction).
    var needsWrite: Bool { !commits.isEmpty || !touchedInstances.isEmpty || !forgottenInstances.isEmpty }
}

/// A batch closed by the engine: the storage batch the writer persists and what becomes visible once it is durable.
///
/// Value type, `Sendable`: it crosses from the engine queue to the writer queue and back.
struct ClosedBatch: Sendable {
    let storage: StorageBatch
    /// The state after the batch (an O(1) copy of persistent maps): the durable state once written.
    let stateAfter: LeagueState
    let digestAfter: Digest
    let replies: [DecidedReply]
    /// When the first decision of the batch was made (for the commit-latency histogram).
    let openedAt: ContinuousClock.Instant
}

/// One answer the engine decided, and where it belongs in the session's stream: after the changeset of revision
/// `after` (the head once the mutation was decided: its own commit for an ack that committed), so the author reads
/// each ack right after the changeset it produced even when one batch carries many (docs/PROTOCOL.md §6).
///
/// Value type, `Sendable`.
struct DecidedReply: Sendable {
    let address: ReplyAddress
    let message: ServerMessage
    let after: Revision
}
