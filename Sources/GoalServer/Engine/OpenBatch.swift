import GoalModel
import GoalStore
import GoalWire

/// What the engine has decided since the last batch went to the writer: commits (with their frames), the client
/// instances whose exactly-once records changed or were forgotten, and the answers to send once the batch is
/// durable.
///
/// Value type, confined to the engine queue.
struct OpenBatch {
    /// Every mutation decided into the batch, in order: what is decided again when another node wrote first.
    var requests: [TimedRequest] = []
    var commits: [LoggedCommit] = []
    var touchedInstances: Set<ClientInstanceID> = []
    var forgottenInstances: Set<ClientInstanceID> = []
    var replies: [DecidedReply] = []
    /// When the batch's first decision was made (for the commit-latency histogram); nil while nothing was. It
    /// belongs to the batch, so deciding another batch's mutations again (a rebase) never dates this one.
    var openedAt: ContinuousClock.Instant?

    /// Notes that something was decided into the batch now, unless something already was.
    mutating func markOpened() {
        if openedAt == nil { openedAt = .now }
    }

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
    /// The mutations decided into it, in order (empty for batches of other nodes' commits).
    var requests: [TimedRequest] = []
}

/// A mutation and the server time it was first decided at; deciding it again (on a shared store, after another
/// node wrote first) keeps that time. Value type, `Sendable`.
struct TimedRequest: Sendable {
    let request: MutationRequest
    let time: Timestamp
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
    /// The HTTP API's callback, when the mutation came from there (`MutationRequest.direct`).
    var direct: DirectReply? = nil
}
