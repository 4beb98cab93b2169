public import Foundation
public import GoalModel

/// Where a `GoalClient` keeps what must outlive its process: the client instance and the last seq it minted (so
/// a restarted client never reuses an id), the outbox (every mutation not yet answered, written before it is first
/// sent), and the replica (so the next client resumes from it — `since` = its revision, same epoch and digest —
/// instead of asking for a snapshot, and can show the league while the server is unreachable).
///
/// `GoalClient` calls `load()` once, when it is created, and the other methods as things happen: `recordQueued`
/// synchronously inside `submit` (before the mutation can be sent), the rest on the client's scheduler. A store
/// failure is logged by the client and never stops it (the state is then only as durable as the process).
///
/// Threading: conformers are `Sendable` and every method may be called from any thread. Lifetime: one store
/// belongs to one client instance at a time (a second process on the same file must use another instance: see
/// `SQLiteClientStateStore`'s slots); the client does not close it.
public protocol ClientStateStore: Sendable {
    /// Everything saved; a store with nothing saved mints (and saves) a fresh client instance.
    func load() throws(ClientStateStoreError) -> SavedClientState
    /// Records a new mutation durably — and its seq as used — before it may be sent.
    func recordQueued(_ mutation: Mutation) throws(ClientStateStoreError)
    /// Records when a queued mutation was first sent (re-sends stop 7 days after it, PROTOCOL.md §6).
    func recordFirstSent(_ id: MutationID, at date: Date) throws(ClientStateStoreError)
    /// Forgets a mutation: the server answered it, or it expired.
    func removeQueued(_ id: MutationID) throws(ClientStateStoreError)
    /// Replaces the saved replica (a synced one: it has an epoch), noting when it was last in sync.
    func saveReplica(_ replica: ReplicaState, syncedAt date: Date) throws(ClientStateStoreError)
}

/// What a `ClientStateStore` holds. Value type, `Sendable`.
public struct SavedClientState: Hashable, Sendable {
    /// The client instance every id of this store belongs to.
    public var instance: ClientInstanceID
    /// The last seq ever minted for `instance` (0 for a new instance); the next mutation gets `lastSeq + 1`.
    public var lastSeq: UInt64
    /// The saved replica (empty when none was saved).
    public var replica: ReplicaState
    /// When the saved replica was last in sync with a server; nil when none was saved.
    public var syncedAt: Date?
    /// Unanswered mutations, ascending by seq.
    public var outbox: [QueuedMutation]

    public init(
        instance: ClientInstanceID,
        lastSeq: UInt64 = 0,
        replica: ReplicaState = ReplicaState(),
        syncedAt: Date? = nil,
        outbox: [QueuedMutation] = []
    ) {
        self.instance = instance
        self.lastSeq = lastSeq
        self.replica = replica
        self.syncedAt = syncedAt
        self.outbox = outbox
    }
}

/// A mutation kept in a `ClientStateStore` until it is answered. Value type, `Sendable`.
public struct QueuedMutation: Hashable, Sendable {
    public var mutation: Mutation
    /// When it was first sent by any process; nil when it never was.
    public var firstSent: Date?

    public init(mutation: Mutation, firstSent: Date? = nil) {
        self.mutation = mutation
        self.firstSent = firstSent
    }
}
