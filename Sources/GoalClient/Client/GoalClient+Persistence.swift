import Foundation
import GoalModel
public import GoalReactive
public import Logging

/// Keeping the instance, seq, outbox and replica in a `ClientStateStore`. Store failures are logged and never stop
/// the client: the state is then only as durable as the process.
extension GoalClient {
    /// Creates a client that restores its instance, last seq, outbox and replica from `stateStore` and keeps them
    /// there; nothing happens until `start()`. The restored mutations (`restoredMutations`) go out first, with their
    /// ids, once a session is authenticated; the hello resumes from the restored replica.
    /// - Parameters:
    ///   - configuration: Token, servers, timing, backoff.
    ///   - transport: Opens connections to the configured servers by index.
    ///   - scheduler: The serial, asynchronous scheduler every state change runs on; its clock is the client's.
    ///   - stateStore: Where the state lives (`SQLiteClientStateStore` in goal-client, `InMemoryClientStateStore`
    ///     in tests). It must not be used by another client at the same time.
    ///   - jitter: Random units for backoff jitter.
    ///   - logger: Where the client logs (info and below).
    /// - Throws: The store's error when it cannot be read.
    public convenience init(
        configuration: ClientConfiguration,
        transport: any Transport,
        scheduler: any DateScheduler,
        stateStore: any ClientStateStore,
        jitter: any JitterSource = SystemJitter(),
        logger: Logger = Logger(label: "goal.client", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(ClientStateStoreError) {
        let saved = try stateStore.load()
        let lastSeq = max(saved.lastSeq, saved.outbox.map(\.mutation.id.seq).max() ?? 0)
        self.init(
            configuration: configuration,
            transport: transport,
            scheduler: scheduler,
            minter: InMemoryMutationIDMinter(instance: saved.instance, lastSeq: lastSeq),
            jitter: jitter,
            replica: saved.replica,
            logger: logger,
            stateStore: stateStore,
            restored: saved.outbox.filter { $0.mutation.id.instance == saved.instance },
            syncedAt: saved.syncedAt
        )
    }

    /// How long after a live changeset the replica is saved (changesets in between are saved together).
    static let replicaSaveDelay: TimeInterval = 1

    /// Records a new mutation in the store, synchronously, before it is queued (and so before it can be sent).
    func recordQueued(_ mutation: Mutation) {
        guard let stateStore else { return }
        do {
            try stateStore.recordQueued(mutation)
        } catch {
            logStoreFailure(error, operation: "record")
        }
    }

    /// Records the first send of these mutations (before they are sent).
    func recordFirstSent(_ mutations: [Mutation]) {
        guard let stateStore, !mutations.isEmpty else { return }
        for mutation in mutations {
            do {
                try stateStore.recordFirstSent(mutation.id, at: now)
            } catch {
                logStoreFailure(error, operation: "first_sent")
            }
        }
    }

    /// Forgets an answered (or expired) mutation.
    func forgetQueued(_ id: MutationID) {
        guard let stateStore else { return }
        do {
            try stateStore.removeQueued(id)
        } catch {
            logStoreFailure(error, operation: "remove")
        }
    }

    /// A live changeset arrived: save the replica within `replicaSaveDelay` (one save for a burst).
    func scheduleReplicaSave() {
        state.replicaUnsaved = true
        guard stateStore != nil, state.saveTimer.inner == nil else { return }
        state.saveTimer.inner = onScheduler(at: now.addingTimeInterval(Self.replicaSaveDelay)) { client in
            client.state.saveTimer.inner = nil
            client.saveReplicaIfNeeded()
        }
    }

    /// Saves the replica now if it changed, or was confirmed in sync, since the last save.
    func saveReplicaIfNeeded() {
        guard let stateStore, state.replicaUnsaved, state.replica.hasSynced else { return }
        state.replicaUnsaved = false
        state.saveTimer.inner = nil
        do {
            try stateStore.saveReplica(state.replica, syncedAt: now)
        } catch {
            logStoreFailure(error, operation: "save_replica")
        }
    }

    /// The answer for mutations still queued when the client stops: kept in the store, or failed.
    func stoppedError(_ reason: StopReason, wasSent: Bool, id: MutationID) -> MutationError {
        stateStore == nil
            ? MutationError(.stopped(reason, wasSent: wasSent), id: id)
            : MutationError(.kept(reason, wasSent: wasSent), id: id)
    }

    private func logStoreFailure(_ error: ClientStateStoreError, operation: String) {
        logger.info(
            "goal.client.state_store.failed",
            metadata: ["goal.client.operation": "\(operation)", "goal.client.error": "\(error)"]
        )
    }
}
