import CoreMetrics
import Dispatch
import GoalLocking
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The authoritative league: one serial queue that checks and merges every mutation against the in-memory state
/// (`BatchDecider`, over `ConflictEngine.apply`), appends commits to the open batch and hands closed batches to the
/// `BatchWriter`, which persists them on its own queue while the engine fills the next one (group commit).
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
/// Neither queue ever waits for the other: the engine hands the writer a batch, and the writer hands the outcome
/// back by enqueuing it on `queue` (`Engine+Writing.swift`); a batch a shared store refused is decided again by the
/// writer itself (`BatchRebase`), never by a call into the engine. Async callers wait through `AsyncLatch`
/// (`stop()`, `onQueue`). Lifetime: from `init` until `stop()` has drained it; a failed write calls `onFatalError`
/// once and stops it.
final class Engine: @unchecked Sendable {
    let queue = DispatchQueue(label: "goald.engine", qos: .userInitiated)
    private let inboxDepth = Atomic<Int>(0)
    /// Mutations submitted and not yet answered to the hub (in the inbox, or decided and not yet durable).
    let held = Atomic<Int>(0)
    private let capacity: Int
    let writer: BatchWriter
    let hub: Hub
    let metrics: ServerMetrics
    let logger: Logger
    private let now: @Sendable () -> Timestamp
    let onFatalError: @Sendable (StorageError) -> Void
    private let tableFullLog = RefusalLog(interval: .seconds(60))

    // Confined to `queue` (internal only for the engine's extensions in other files).
    /// The applied state (ahead of the durable one by the batch in flight and the open batch) and its digest.
    var decider: BatchDecider
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
    /// Opened once the engine stopped and wrote what it had decided (or failed): what `stop()` waits for.
    let drained = AsyncLatch<Void>()
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
        self.decider = BatchDecider(
            state: recovered.state,
            headDigest: recovered.headDigest,
            clientRecordPolicy: clientRecordPolicy
        )
        self.storeHead = StoreHead(revision: recovered.head, version: recovered.version)
        self.capacity = capacity
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
        queue.async {
            self.stopping = true
            // Held back for a catch-up: their sessions are closing; their clients re-send after reconnect.
            self.held.subtract(self.parked.count, ordering: .relaxed)
            self.parked = []
            self.resumeHeadWaiters(all: true)
            self.writeIfIdle()
            self.resumeDrainedIfDone()
        }
        await drained.wait()
    }

    /// Runs `body` on the engine queue and returns its result: how async callers reach the engine's state.
    func onQueue<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        let result = AsyncLatch<Result>()
        queue.async { result.open(body()) }
        return await result.wait()
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

    /// Decides one mutation on the applied state into `batch` (`BatchDecider`) and counts it unless `counting` is
    /// false (the same requests decided again after other nodes wrote first, `Engine+SharedStore.swift`).
    func decide(_ timed: TimedRequest, into batch: inout OpenBatch, counting: Bool = true) {
        let recordsBefore = decider.state.clientRecordCount
        let verdict = decider.decide(timed, into: &batch)
        if decider.state.clientRecordCount != recordsBefore {
            metrics.clientRecords.set(decider.state.clientRecordCount)
        }
        guard counting else { return }
        switch verdict {
        case .unauthorized:
            metrics.recordRejection(.unauthorized)
        case .tableFull:
            metrics.overloaded.increment()
            if let refusals = tableFullLog.refused(now: .now()) {
                logger.warning(
                    "the exactly-once table is full; mutations from new client instances are answered overloaded",
                    metadata: [
                        "goal.records": "\(decider.state.clientRecordCount)", "goal.refusals": "\(refusals)",
                        "goal.hint": "raise clientRecords.maximumCount or lower clientRecords.maximumAgeSeconds",
                    ]
                )
            }
        case .decided(let decision):
            metrics.recordDecision(decision)
        }
    }

    /// Forgets the exactly-once records not used for the policy's age (each instance is then unknown: a mutation
    /// it sends is processed as new); the store deletes them with the next batch. Any thread.
    /// - Returns: How many records were forgotten.
    func forgetIdleClientRecords() async -> Int {
        await onQueue {
            guard !self.stopping, !self.failed else { return 0 }
            let age = self.decider.clientRecordPolicy.maximumAge.components.seconds * 1000
            let cutoff = Timestamp(millisecondsSince1970: self.now().millisecondsSince1970 &- age)
            let forgotten = self.decider.state.forgetClientRecords(usedBefore: cutoff)
            if !forgotten.isEmpty {
                self.openBatch.forgottenInstances.formUnion(forgotten)
                self.metrics.clientRecordsForgotten.increment(by: Int64(forgotten.count))
                self.openBatch.markOpened()
                self.writeIfIdle()
            }
            self.metrics.clientRecords.set(self.decider.state.clientRecordCount)
            return forgotten.count
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
