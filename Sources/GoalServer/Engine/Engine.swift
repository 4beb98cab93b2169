import CoreMetrics
import Dispatch
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The authoritative league: one serial queue that checks and merges every mutation against the in-memory state
/// (`ConflictEngine.apply`), appends commits to the open batch and hands closed batches to the `BatchWriter`,
/// which persists them on its own queue while the engine fills the next one (group commit).
///
/// Applied vs durable: `appliedRevision` moves with each commit; `durableRevision` only when the writer has
/// fsynced the batch. Only then does the batch reach the `Hub`, so nothing reflecting a revision leaves the process
/// before it is durable. Answers (acks, rejections, duplicates) travel in the batch they were decided in.
///
/// Bound: `capacity` covers every mutation the engine holds, waiting to be decided (the inbox) or decided and
/// waiting to be durable (the open batch that fills while a write is in flight): a stalled disk cannot make the
/// open batch grow without end. Past it `submit` returns false and the session answers `overloaded{seq}`.
///
/// The exactly-once table is bounded by `ClientRecordPolicy`: `forgetIdleClientRecords()` (run by `Maintenance`)
/// forgets records idle for the policy's age, in the next batch; while the table holds `maximumCount` records, a
/// mutation from an instance without one is answered `overloaded{seq}` after `tableFullRetryMilliseconds`.
///
/// Threading: `submit` is called from event loops and never blocks. All other mutable state is confined to `queue`, which serves as
/// this class's lock: that is why it is `@unchecked Sendable`. `durableView` is a lock-protected copy for readers.
/// Lifetime: from `init` until `stop()` has drained it; a failed write calls `onFatalError` once and stops it.
final class Engine: @unchecked Sendable {
    private let queue = DispatchQueue(label: "goald.engine", qos: .userInitiated)
    private let inboxDepth = Atomic<Int>(0)
    /// Mutations submitted and not yet answered to the hub (in the inbox, or decided and not yet durable).
    private let held = Atomic<Int>(0)
    private let capacity: Int
    private let clientRecordPolicy: ClientRecordPolicy
    private let writer: BatchWriter
    private let hub: Hub
    private let metrics: ServerMetrics
    private let logger: Logger
    private let now: @Sendable () -> Timestamp
    private let onFatalError: @Sendable (StorageError) -> Void
    private let tableFullLog = RefusalLog(interval: .seconds(60))

    // Confined to `queue`.
    private var state: LeagueState
    private var headDigest: Digest
    private var openBatch = OpenBatch()
    private var openedAt: ContinuousClock.Instant?
    private var writing = false
    /// The store said it is unavailable (`StorageError.isTransient`): the batch in flight is retried after
    /// `retryDelay`, and new mutations are answered `overloaded` at once.
    private var storeDown = false
    private var retryDelay = Engine.firstRetryDelay
    private var stopping = false
    private var failed = false
    private var drained: [CheckedContinuation<Void, Never>] = []

    private let durable: NIOLockedValueBox<DurableView>

    init(
        recovered: DurableLeague,
        capacity: Int,
        clientRecordPolicy: ClientRecordPolicy = .default,
        writer: BatchWriter,
        hub: Hub,
        metrics: ServerMetrics,
        logger: Logger,
        now: @escaping @Sendable () -> Timestamp,
        onFatalError: @escaping @Sendable (StorageError) -> Void
    ) {
        self.state = recovered.state
        self.headDigest = recovered.headDigest
        self.capacity = capacity
        self.clientRecordPolicy = clientRecordPolicy
        self.writer = writer
        self.hub = hub
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.onFatalError = onFatalError
        self.durable = NIOLockedValueBox(DurableView(state: recovered.state, digest: recovered.headDigest))
    }

    /// The first wait before writing a batch again after the store was unavailable; doubled per failure, at most
    /// `lastRetryDelay`.
    static let firstRetryDelay: Duration = .milliseconds(100)
    static let lastRetryDelay: Duration = .seconds(2)
    /// The advised wait while the store is unavailable.
    static let storeDownRetryMilliseconds = 1_000

    /// The advised wait when the exactly-once table is full: records free up only as maintenance forgets idle
    /// ones, so a client waits a minute, not the inbox's short delay.
    static let tableFullRetryMilliseconds = 60_000

    /// False while the store is unavailable (batches retried, mutations answered `overloaded`). Any thread.
    var isStoreAvailable: Bool { storeAvailable.load(ordering: .relaxed) }
    private let storeAvailable = Atomic<Bool>(true)

    /// The durable league, for snapshots and health checks. Any thread.
    var durableView: DurableView { durable.withLockedValue { $0 } }

    /// Hands a mutation to the engine. Any thread; never blocks.
    /// - Returns: false when the inbox is full (the caller answers `overloaded`) or the engine is stopping.
    func submit(_ request: MutationRequest) -> Bool {
        guard held.add(1, ordering: .relaxed).newValue <= capacity else {
            held.subtract(1, ordering: .relaxed)
            return false
        }
        let depth = inboxDepth.add(1, ordering: .relaxed).newValue
        metrics.inboxDepth.record(depth)
        queue.async {
            self.inboxDepth.subtract(1, ordering: .relaxed)
            self.process(request)
        }
        return true
    }

    /// Stops taking mutations, writes and publishes what was decided, and returns once it is durable (or the
    /// writer failed). Idempotent.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.stopping = true
                self.drained.append(continuation)
                self.writeIfIdle()
                self.resumeDrainedIfDone()
            }
        }
    }

    // MARK: - On the engine queue

    private func process(_ request: MutationRequest) {
        guard !stopping, !failed else {
            held.subtract(1, ordering: .relaxed)
            return  // the session is being closed; its client re-sends after reconnect
        }
        let mutation = request.mutation
        let instance = mutation.id.instance
        let time = now()
        if storeDown {
            answerAtOnce(
                request,
                .overloaded(seq: mutation.id.seq, retryAfterMilliseconds: Self.storeDownRetryMilliseconds)
            )
            return
        }
        let message: ServerMessage
        if !request.role.permits(mutation.action) {
            metrics.recordRejection(.unauthorized)
            message = .rejected(
                seq: mutation.id.seq,
                MutationRejection(
                    code: .unauthorized,
                    message: "the \(request.role.rawValue) role may not \(mutation.action.operation)"
                )
            )
        } else if state.clientRecord(for: instance) == nil,
            state.clientRecordCount >= clientRecordPolicy.maximumCount
        {
            // Evicting a record younger than the policy's age would let a re-send of its mutations apply twice.
            metrics.overloaded.increment()
            if let refusals = tableFullLog.refused(now: .now()) {
                logger.warning(
                    "the exactly-once table is full; mutations from new client instances are answered overloaded",
                    metadata: [
                        "goal.records": "\(state.clientRecordCount)", "goal.refusals": "\(refusals)",
                        "goal.hint": "raise clientRecords.maximumCount or lower clientRecords.maximumAgeSeconds",
                    ]
                )
            }
            message = .overloaded(seq: mutation.id.seq, retryAfterMilliseconds: Self.tableFullRetryMilliseconds)
        } else {
            let recordsBefore = state.clientRecordCount
            let decision = ConflictEngine.apply(mutation, author: request.author, to: &state)
            state.markClientRecordUsed(instance, at: time)
            if state.clientRecordCount != recordsBefore { metrics.clientRecords.set(state.clientRecordCount) }
            switch decision {
            case .commit(let commit):
                // `encode` computes the chained digest (the changeset's own digest field is not read).
                var changeset = commit.changeset(time: time, digest: headDigest)
                let frame = ChangesetFrame.encode(changeset, previousDigest: headDigest)
                changeset.digest = frame.digest
                headDigest = frame.digest
                openBatch.commits.append(LoggedCommit(changeset: changeset, frame: frame.bytes))
                openBatch.touchedInstances.insert(instance)
            case .noop, .rejected:
                openBatch.touchedInstances.insert(instance)
            case .duplicate:
                break
            }
            metrics.recordDecision(decision)
            message = ServerMessage.outcome(seq: mutation.id.seq, decision.outcome)
        }
        if openedAt == nil { openedAt = .now }
        openBatch.replies.append(DecidedReply(address: request.replyTo, message: message, after: state.revision))
        writeIfIdle()
    }

    /// Forgets the exactly-once records not used for the policy's age (each instance is then unknown: a mutation
    /// it sends is processed as new); the store deletes them with the next batch. Any thread.
    /// - Returns: How many records were forgotten.
    func forgetIdleClientRecords() async -> Int {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            queue.async {
                guard !self.stopping, !self.failed else { return continuation.resume(returning: 0) }
                let age = self.clientRecordPolicy.maximumAge.components.seconds * 1000
                let cutoff = Timestamp(millisecondsSince1970: self.now().millisecondsSince1970 &- age)
                let forgotten = self.state.forgetClientRecords(usedBefore: cutoff)
                if !forgotten.isEmpty {
                    self.openBatch.forgottenInstances.formUnion(forgotten)
                    self.metrics.clientRecordsForgotten.increment(by: Int64(forgotten.count))
                    if self.openedAt == nil { self.openedAt = .now }
                    self.writeIfIdle()
                }
                self.metrics.clientRecords.set(self.state.clientRecordCount)
                continuation.resume(returning: forgotten.count)
            }
        }
    }

    /// Closes the open batch and starts writing it, unless a write is in flight (then it keeps filling).
    private func writeIfIdle() {
        guard !writing, !failed, !openBatch.isEmpty else { return }
        let batch = ClosedBatch(
            storage: StorageBatch(
                commits: openBatch.commits,
                clientRecords: openBatch.touchedInstances.compactMap { state.clientRecord(for: $0) },
                forgottenClients: Array(openBatch.forgottenInstances)
            ),
            stateAfter: state,
            digestAfter: headDigest,
            replies: openBatch.replies,
            openedAt: openedAt ?? .now
        )
        openBatch = OpenBatch()
        openedAt = nil
        guard !batch.storage.isEmpty else {
            // Only replies (duplicates of durable results, unauthorized): nothing to persist, nothing in flight.
            publish(batch)
            return
        }
        writing = true
        writer.write(batch) { result in
            self.queue.async { self.writeFinished(batch, result) }
        }
    }

    /// Answers a mutation that was not decided, without waiting for the batch in flight: the answer follows the
    /// durable head, which is what its session has or will have first.
    private func answerAtOnce(_ request: MutationRequest, _ message: ServerMessage) {
        metrics.overloaded.increment()
        let durable = durableView
        publish(
            ClosedBatch(
                storage: StorageBatch(),
                stateAfter: durable.state,
                digestAfter: durable.digest,
                replies: [DecidedReply(address: request.replyTo, message: message, after: durable.state.revision)],
                openedAt: .now
            )
        )
    }

    private func writeFinished(_ batch: ClosedBatch, _ result: Result<Void, StorageError>) {
        if case .failure(let error) = result, error.isTransient, !stopping {
            retry(batch, after: error)
            return
        }
        writing = false
        if storeDown, case .success = result {
            storeDown = false
            storeAvailable.store(true, ordering: .relaxed)
            metrics.storeAvailable.set(1)
            retryDelay = Self.firstRetryDelay
            logger.notice("the store is available again; batches are written and mutations decided")
        }
        switch result {
        case .success:
            metrics.batchCommits.record(batch.storage.commits.count)
            metrics.commitLatency.recordNanoseconds(Int64((ContinuousClock.now - batch.openedAt).nanoseconds))
            publish(batch)
            writeIfIdle()
        case .failure(let error):
            failed = true
            logger.critical("batch write failed; stopping", metadata: ["goal.error": "\(error)"])
            onFatalError(error)
        }
        resumeDrainedIfDone()
    }

    /// Keeps the batch in flight and writes it again after a growing delay; meanwhile new mutations are answered
    /// `overloaded`. The store recognises a batch that an attempt committed before its connection was lost.
    private func retry(_ batch: ClosedBatch, after error: StorageError) {
        if !storeDown {
            storeDown = true
            storeAvailable.store(false, ordering: .relaxed)
            metrics.storeAvailable.set(0)
            metrics.storeOutages.increment()
            logger.warning(
                "the store is unavailable; retrying the batch in flight and answering new mutations overloaded",
                metadata: ["goal.error": "\(error)"]
            )
        }
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.lastRetryDelay)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds))) {
            self.writer.write(batch) { result in
                self.queue.async { self.writeFinished(batch, result) }
            }
        }
    }

    private func publish(_ batch: ClosedBatch) {
        durable.withLockedValue { $0 = DurableView(state: batch.stateAfter, digest: batch.digestAfter) }
        hub.publish(batch)
        held.subtract(batch.replies.count, ordering: .relaxed)  // one answer per mutation decided
    }

    private func resumeDrainedIfDone() {
        guard stopping, failed || (!writing && openBatch.isEmpty) else { return }
        let waiting = drained
        drained = []
        for continuation in waiting { continuation.resume() }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
