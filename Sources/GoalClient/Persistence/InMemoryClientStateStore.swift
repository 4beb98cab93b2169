public import Foundation
import GoalLocking
public import GoalModel

/// A `ClientStateStore` in memory: what a process-restart test shares between two `GoalClient`s (the second one
/// restores the first one's instance, seq, outbox and replica). Nothing survives the process.
///
/// Threading: thread-safe (`LockedValue`). Lifetime: as long as the object.
public final class InMemoryClientStateStore: ClientStateStore {
    private let saved: LockedValue<SavedClientState>

    /// - Parameter state: The initial contents (a fresh random instance by default).
    public init(_ state: SavedClientState = SavedClientState(instance: .random())) {
        saved = LockedValue(state)
    }

    /// The contents now (for tests).
    public var state: SavedClientState { saved.withLock { $0 } }

    public func load() throws(ClientStateStoreError) -> SavedClientState { state }

    public func recordQueued(_ mutation: Mutation) throws(ClientStateStoreError) {
        saved.withLock { state in
            state.outbox.removeAll { $0.mutation.id == mutation.id }
            state.outbox.append(QueuedMutation(mutation: mutation))
            state.outbox.sort { $0.mutation.id.seq < $1.mutation.id.seq }
            state.lastSeq = max(state.lastSeq, mutation.id.seq)
        }
    }

    public func recordFirstSent(_ id: MutationID, at date: Date) throws(ClientStateStoreError) {
        saved.withLock { state in
            guard let index = state.outbox.firstIndex(where: { $0.mutation.id == id }) else { return }
            if state.outbox[index].firstSent == nil { state.outbox[index].firstSent = date }
        }
    }

    public func removeQueued(_ id: MutationID) throws(ClientStateStoreError) {
        saved.withLock { $0.outbox.removeAll { $0.mutation.id == id } }
    }

    public func saveReplica(_ replica: ReplicaState, syncedAt date: Date) throws(ClientStateStoreError) {
        saved.withLock { state in
            state.replica = replica
            state.syncedAt = date
        }
    }
}
