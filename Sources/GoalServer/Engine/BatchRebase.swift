import GoalModel
import GoalStore

/// The batch in flight as the writer holds it while a shared store may refuse it (`SharedLeagueStorage.append`):
/// each refusal brings what other nodes wrote, and `rebase(onto:)` decides the batch again on top of it, right there
/// on the writer's thread (possibly while the store's head is locked) with a `BatchDecider` of its own. The engine
/// is never asked: it takes the result once the write's outcome reaches its queue (`Engine.take(_:)`), publishing
/// the other nodes' commits before the batch and deciding its open batch again on top.
///
/// Value type, `Sendable`: built on the engine queue, mutated only by the writer during one write, handed back with
/// the outcome.
struct BatchRebase: Sendable {
    /// The batch to write: the one the engine closed, or that batch decided again on what others wrote.
    private(set) var batch: ClosedBatch
    /// The durable state `batch` is decided on.
    private(set) var durable: DurableView
    /// What each refusal brought, in order, with the batch that publishes it.
    private(set) var absorbed: [(changes: ForeignChanges, published: ClosedBatch)] = []
    private let policy: ClientRecordPolicy

    /// - Parameters:
    ///   - batch: The batch in flight.
    ///   - durable: The durable state it was decided on (the engine publishes nothing else while it is in flight).
    init(_ batch: ClosedBatch, decidedOn durable: DurableView, policy: ClientRecordPolicy) {
        self.batch = batch
        self.durable = durable
        self.policy = policy
    }

    /// Decides the batch again on what other nodes wrote after it was decided (each call: after the previous call's
    /// head), keeping its mutations' order and times.
    /// - Returns: The batch to write instead.
    /// - Throws: `StorageError.inconsistent` when their changesets do not apply here.
    mutating func rebase(onto changes: ForeignChanges) throws(StorageError) -> StorageBatch {
        var (decider, published) = try BatchDecider.absorbing(changes, onto: durable, policy: policy)
        var again = OpenBatch()
        decider.decideAgain(
            batch.requests,
            forgetting: batch.storage.forgottenClients,
            exceptRefreshed: Set(changes.clientRecords.map(\.instance)),
            into: &again
        )
        batch = decider.close(&again, openedAt: batch.openedAt)
        durable = DurableView(state: published.stateAfter, digest: published.digestAfter)
        absorbed.append((changes, published))
        return batch.storage
    }
}
