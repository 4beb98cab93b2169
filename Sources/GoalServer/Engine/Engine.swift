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
/// Applied vs durable (docs/RULES.md): the state's revision moves with each commit; `durableView` only when the
/// writer has fsynced the batch. Only then does the batch reach the `Hub`, so nothing reflecting a revision leaves the process
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
/// On a store other goald nodes write too (`SharedLeagueStorage`), the engine also follows them
/// (`Engine+SharedStore.swift`): a batch whose store moved is decided again on what the others wrote, and their
/// commits reach this node's sessions like its own.
///
/// Threading: `submit` is called from event loops and never blocks. All other mutable state is confined to `queue`, which serves as
/// this class's lock: that is why it is `@unchecked Sendable`. `durableView` is a lock-protected copy for readers.
/// The writer's queue may wait for `queue` (`queue.sync` while a shared store's head is locked); `queue` never
/// waits for the writer. Lifetime: from `init` until `stop()` has drained it; a failed write calls `onFatalError`
/// once and stops it.
final class Engine: @unchecked Sendable {
    let queue = DispatchQueue(label: "goald.engine", qos: .userInitiated)
    private let inboxDepth = Atomic<Int>(0)
    /// Mutations submitted and not yet answered to the hub (in the inbox, or decided and not yet durable).
    let held = Atomic<Int>(0)
    private let capacity: Int
    private let clientRecordPolicy: ClientRecordPolicy
    let writer: BatchWriter
    let hub: Hub
    let metrics: ServerMetrics
    let logger: Logger
    private let now: @Sendable () -> Timestamp
    let onFatalError: @Sendable (StorageError) -> Void
    private let tableFullLog = RefusalLog(interval: .seconds(60))

    // Confined to `queue` (internal only for the engine's extensions in other files).
    var state: LeagueState
    var headDigest: Digest
    var openBatch = OpenBatch()
    /// The batch the writer is writing (nil when idle).
    var inFlight: ClosedBatch?
    /// Where the store stood after this node's last write or catch-up: what the batch in flight is decided on.
    var storeHead: StoreHead
    /// The store said it is unavailable (`StorageError.isTransient`): the batch in flight is retried after
    /// `retryDelay`, and new mutations are answered `overloaded` at once.
    var storeDown = false
    var retryDelay = Engine.firstRetryDelay
    var stopping = false
    var failed = false
    var drained: [CheckedContinuation<Void, Never>] = []
    /// Shared stores only: a read of what other nodes wrote is in flight, is wanted, and what waits for it.
    var catchingUp = false
    var catchUpWanted = false
    /// The newest version a commit notification announced.
    var newestNotified: StoreVersion = 0
    /// Other nodes' batches their notifications carried while this node was writing or reading (at most
    /// `Engine.notifiedBatchLimit`): taken once this node's head reaches the head each was written on.
    var notifiedBatches: [HeadNotice.Written] = []
    var parked: [TimedRequest] = []
    var headWaiters: [(revision: Revision, resume: @Sendable () -> Void)] = []

    let durable: NIOLockedValueBox<DurableView>

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
        self.storeHead = StoreHead(revision: recovered.head, version: recovered.version)
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
    let storeAvailable = Atomic<Bool>(true)

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
                // Held back for a catch-up: their sessions are closing; their clients re-send after reconnect.
                self.held.subtract(self.parked.count, ordering: .relaxed)
                self.parked = []
                self.resumeHeadWaiters(all: true)
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
        if storeDown {
            answerAtOnce(
                request,
                .overloaded(seq: request.mutation.id.seq, retryAfterMilliseconds: Self.storeDownRetryMilliseconds)
            )
            return
        }
        let timed = TimedRequest(request: request, time: now())
        if park(timed) { return }
        decide(timed, into: &openBatch)
        writeIfIdle()
    }

    /// Decides one mutation on `state` and adds its commit, record and answer to `batch`. Deciding the same
    /// requests again on another state (`Engine+SharedStore.swift`) goes through here too, with `counting` false
    /// so the metrics count each mutation once.
    func decide(_ timed: TimedRequest, into batch: inout OpenBatch, counting: Bool = true) {
        let request = timed.request
        let mutation = request.mutation
        let instance = mutation.id.instance
        let message: ServerMessage
        if !request.role.permits(mutation.action) {
            if counting { metrics.recordRejection(.unauthorized) }
            message = .rejected(
                seq: mutation.id.seq,
                .unauthorized(request.role, mutation.action)
            )
        } else if state.clientRecord(for: instance) == nil,
            state.clientRecordCount >= clientRecordPolicy.maximumCount
        {
            // Evicting a record younger than the policy's age would let a re-send of its mutations apply twice.
            if counting { metrics.overloaded.increment() }
            if counting, let refusals = tableFullLog.refused(now: .now()) {
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
            state.markClientRecordUsed(instance, at: timed.time)
            if state.clientRecordCount != recordsBefore { metrics.clientRecords.set(state.clientRecordCount) }
            switch decision {
            case .commit(let commit):
                // `encode` computes the chained digest (the changeset's own digest field is not read).
                var changeset = commit.changeset(time: timed.time, digest: headDigest)
                let frame = ChangesetFrame.encode(changeset, previousDigest: headDigest)
                changeset.digest = frame.digest
                headDigest = frame.digest
                batch.commits.append(LoggedCommit(changeset: changeset, frame: frame.bytes))
                batch.touchedInstances.insert(instance)
            case .noop, .rejected:
                batch.touchedInstances.insert(instance)
            case .duplicate:
                break
            }
            if counting { metrics.recordDecision(decision) }
            message = ServerMessage.outcome(seq: mutation.id.seq, decision.outcome)
        }
        batch.markOpened()
        batch.requests.append(timed)
        batch.replies.append(
            DecidedReply(address: request.replyTo, message: message, after: state.revision, direct: request.direct)
        )
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
                    self.openBatch.markOpened()
                    self.writeIfIdle()
                }
                self.metrics.clientRecords.set(self.state.clientRecordCount)
                continuation.resume(returning: forgotten.count)
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
