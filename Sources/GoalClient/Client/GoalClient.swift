public import Foundation
public import GoalModel
public import GoalReactive
import GoalWire
public import Logging

/// The live client of one goald league: a replica of the league kept in sync over a `Transport`, an outbox of
/// mutations, heartbeats, reconnects, and failover between the league's servers (`ClientConfiguration.servers`:
/// a lost connection resumes on the next server with the same epoch, revision and digest).
///
/// Outputs are `Property`s (replica, status, pending mutations) and a `Signal` of applied updates; inputs are
/// `start`, `stop`, `submit` and `refresh`.
///
/// Threading: every input hops onto `scheduler`, which must be **serial and asynchronous** (a `QueueScheduler` in
/// production, a `TestScheduler` in tests; not `ImmediateScheduler`). All state changes, transport calls and
/// output emissions happen there, so observers of the outputs run on that scheduler. Time (backoff, pings, dead
/// peer, `retry_after_ms`) is read only from `scheduler.currentDate`, so a `TestScheduler` drives all of it.
///
/// Lifetime: the client keeps itself alive while a connection or a timer is armed; call `stop()` to close the
/// connection, cancel every timer and fail the mutations still queued. A stopped client can be started again.
///
/// Persistence: created with a `ClientStateStore` (`init(configuration:transport:scheduler:stateStore:…)`), the
/// client restores its instance, last seq, outbox and replica from it, records every new mutation in it before it
/// can be sent, forgets a mutation once answered, and saves the replica when it catches up, after live changesets
/// (at most once a second) and when it stops. Mutations still unanswered at `stop()` stay queued, in memory and in
/// the store (their producers fail with `MutationError.Kind.kept`): a restart of this client, or the next client on
/// that store, sends them with the same ids.
///
/// Connecting, hello, resuming, failover, backoff and the heartbeat are the shared `ResumeDriver`'s (serial, on
/// `scheduler`); this type is its delegate: it reads the messages, keeps the replica and the outbox, and publishes.
///
/// `@unchecked Sendable`: mutable state lives in `state` and is touched only inside `onScheduler`, which holds the
/// driver's lock (a recursive lock, uncontended in practice because the scheduler is serial; it keeps the
/// `Sendable` claim true even if a caller passes a concurrent scheduler).
public final class GoalClient: @unchecked Sendable {
    public let configuration: ClientConfiguration
    /// The client instance that scopes this client's mutation ids.
    public var clientInstance: ClientInstanceID { minter.instance }

    /// The replica: players, matches and ratings at `revision`, with epoch and digest.
    public let replica: Property<ReplicaState>
    /// Every applied changeset (and every snapshot), after `replica` holds it. While a backlog is read, the replica
    /// and these updates are published in batches (`ClientConfiguration.backlogBatch`), in order.
    public let updates: Signal<ReplicaUpdate, Never>
    /// The connection's state.
    public let status: Property<ConnectionStatus>
    /// Mutations created and not yet answered, in seq order.
    public let pendingMutations: Property<[PendingMutation]>
    /// The role the server granted the token (known after the first `welcome`).
    public let role: Property<Role?>
    /// The server the current connection goes to (or the next one will), with the node its `welcome` named.
    public let server: Property<ServerLocation>
    /// Who is in the league now (this client included, unless it observes), by name; empty while disconnected
    /// and when the configuration asks for no presence (GoalClient+Presence.swift).
    public let presence: Property<[PresenceMember]>
    /// True once this connection's `presence_state` arrived (`presence` is then complete); false while
    /// disconnected.
    public let presenceKnown: Property<Bool>
    /// The mutations an earlier client on the same `ClientStateStore` left unanswered, restored into the outbox (they
    /// go out first, with their ids), each with its answer. Empty without a store.
    public let restoredMutations: [RestoredMutation]
    /// When the restored replica was last in sync with a server (nil without a store or a saved replica).
    public let restoredSyncedAt: Date?

    let transport: any Transport
    let scheduler: any DateScheduler
    let minter: any MutationIDMinter
    let jitter: any JitterSource
    let logger: Logger
    /// Where the instance, seq, outbox and replica are kept across processes; nil: in memory only.
    let stateStore: (any ClientStateStore)?

    let replicaStorage: MutableProperty<ReplicaState>
    let statusStorage = MutableProperty<ConnectionStatus>(.idle)
    let pendingStorage = MutableProperty<[PendingMutation]>([])
    let roleStorage = MutableProperty<Role?>(nil)
    let serverStorage: MutableProperty<ServerLocation>
    let presenceStorage = MutableProperty<[PresenceMember]>([])
    let presenceKnownStorage = MutableProperty(false)
    let updatesInput: Signal<ReplicaUpdate, Never>.Observer

    /// Runs the connection and the resume rules; its lock guards `state` too.
    let driver: ResumeDriver
    /// Guarded by the driver's lock; see the type's documentation.
    var state: State

    /// Everything that changes, in one place.
    struct State {
        var replica: ReplicaState
        var outbox = Outbox()
        var session = SyncSession()
        /// The last `error` message of this connection: its close code and text explain the close that follows.
        var serverError: (code: WireErrorCode, message: String)?
        /// Backlog changesets applied to `replica` but not yet published (see `publishApplied`).
        var unpublished: [Changeset] = []
        /// What this client announces (sent after every welcome when not `online`).
        var activity: PresenceActivity = .online
        /// The current connection's `presence_state` arrived: the server knows presence, announcements may be sent.
        var presenceSupported = false
        let resumeTimer = SerialDisposable()
        /// The replica changed (or was confirmed in sync by a welcome) since it was last saved to the state store.
        var replicaUnsaved = false
        let saveTimer = SerialDisposable()
        /// `history` requests waiting for their answers (GoalClient+History.swift).
        var history = HistoryQueue()
    }

    /// Creates a client; nothing happens until `start()`.
    /// - Parameters:
    ///   - configuration: Token, servers, timing, backoff.
    ///   - transport: Opens connections to the configured servers by index (GoalTransport's WebSocket transport,
    ///     or a fake).
    ///   - scheduler: The serial, asynchronous scheduler every state change runs on; its clock is the client's.
    ///   - minter: Mints mutation ids (a fresh in-memory instance by default).
    ///   - jitter: Random units for backoff jitter.
    ///   - replica: A replica to resume from (empty by default).
    ///   - logger: Where the client logs (info and below); silent by default (a library never picks a log sink).
    public convenience init(
        configuration: ClientConfiguration,
        transport: any Transport,
        scheduler: any DateScheduler,
        minter: any MutationIDMinter = InMemoryMutationIDMinter(),
        jitter: any JitterSource = SystemJitter(),
        replica: ReplicaState = ReplicaState(),
        logger: Logger = Logger(label: "goal.client", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(
            configuration: configuration,
            transport: transport,
            scheduler: scheduler,
            minter: minter,
            jitter: jitter,
            replica: replica,
            logger: logger,
            stateStore: nil,
            restored: [],
            syncedAt: nil
        )
    }

    /// The one designated initializer: everything the public ones take, plus the state store and the outbox it
    /// restored.
    init(
        configuration: ClientConfiguration,
        transport: any Transport,
        scheduler: any DateScheduler,
        minter: any MutationIDMinter,
        jitter: any JitterSource,
        replica: ReplicaState,
        logger: Logger,
        stateStore: (any ClientStateStore)?,
        restored: [QueuedMutation],
        syncedAt: Date?
    ) {
        self.configuration = configuration
        self.stateStore = stateStore
        restoredSyncedAt = syncedAt
        self.transport = transport
        self.scheduler = scheduler
        self.minter = minter
        self.jitter = jitter
        self.logger = logger
        driver = ResumeDriver(
            machine: ResumeSession(
                position: ResumeSession.Position(resumingFrom: replica),
                policy: configuration.backoff,
                idleTimeout: configuration.idleTimeout,
                serverCount: configuration.servers.count
            ),
            options: ResumeDriver.Options(
                token: configuration.token,
                instance: minter.instance,
                stream: configuration.stream,
                presence: configuration.presence,
                heartbeat: configuration.heartbeat,
                league: configuration.league
            ),
            transport: transport,
            execution: .serial(scheduler),
            jitter: jitter
        )
        var initial = State(replica: replica)
        var restoredMutations: [RestoredMutation] = []
        for queued in restored {
            let ticket = MutationTicket(id: queued.mutation.id)
            initial.outbox.restore(queued, ticket: ticket)
            restoredMutations.append(RestoredMutation(mutation: queued.mutation, outcome: ticket.producer))
        }
        state = initial
        self.restoredMutations = restoredMutations
        serverStorage = MutableProperty(ServerLocation(index: 0, name: configuration.serverName(at: 0)))
        server = Property(capturing: serverStorage)
        replicaStorage = MutableProperty(replica)
        self.replica = Property(capturing: replicaStorage)
        status = Property(capturing: statusStorage)
        pendingMutations = Property(capturing: pendingStorage)
        role = Property(capturing: roleStorage)
        presence = Property(capturing: presenceStorage)
        presenceKnown = Property(capturing: presenceKnownStorage)
        (updates, updatesInput) = Signal.pipe()
        pendingStorage.value = state.outbox.pending
        driver.attach(self)
    }

    /// Starts connecting (and reconnecting) until `stop()` or a terminal close.
    public func start() {
        onScheduler { $0.driver.start() }
    }

    /// Closes the connection with 1000, cancels every timer and fails the queued mutations
    /// (`MutationError.Kind.stopped`). The replica is kept.
    public func stop() {
        onScheduler { $0.driver.stop() }
    }

    /// `stop()`, then calls `completion` on the scheduler once the client has stopped and, with a state store,
    /// saved its replica: a process may exit after it without losing anything.
    public func stop(completion: @escaping @Sendable () -> Void) {
        onScheduler { client in
            client.driver.stop()
            client.saveReplicaIfNeeded()
            completion()
        }
    }

    /// Creates a mutation now — its id is minted here — and queues it; it is sent as soon as a session is
    /// authenticated and re-sent with the same id after every reconnect until the server answers.
    ///
    /// - Parameters:
    ///   - action: What to do.
    ///   - base: The revision at which the edited values were read (an edit form's opening revision).
    /// - Returns: A producer of the answer: the ack, or a `MutationError`. Every start observes the same single
    ///   mutation (replaying the answer if it already came); starting it never sends again.
    public func submit(_ action: MutationAction, base: Revision) -> SignalProducer<MutationAck, MutationError> {
        let mutation = Mutation(id: minter.mint(), base: base, action: action)
        let ticket = MutationTicket(id: mutation.id)
        recordQueued(mutation)
        onScheduler { $0.enqueue(mutation, ticket: ticket) }
        return ticket.producer
    }

    /// Makes sure the replica is current: skips a pending reconnect wait (starting the client if idle), then
    /// sends the replica's revision once the session is live.
    /// - Returns: A producer of the live revision. It fails with a `StoreError` when the connection attempt it
    ///   waits for fails (the client keeps retrying with backoff; the replica stays usable) or when the client
    ///   stops.
    public func refresh() -> SignalProducer<Revision, StoreError> {
        SignalProducer { observer, lifetime in
            self.onScheduler { client in
                if case .idle = client.driver.machine.reconnect.state {
                    client.driver.start()
                } else {
                    client.driver.reconnectNow()
                }
            }
            var attempting = false
            lifetime += self.status.producer.startWithValues { [weak self] status in
                switch status {
                case .live:
                    observer.send(value: self?.replica.value.revision ?? 0)
                    observer.sendCompleted()
                case .stopped(let reason):
                    observer.send(error: .stopped(reason))
                case .connecting, .syncing:
                    attempting = true
                case .reconnecting(_, let delay) where attempting:
                    observer.send(error: .unreachable(self?.configuration.serverName ?? "", retryIn: delay))
                case .idle, .reconnecting:
                    break
                }
            }
        }
    }

    /// Runs `body` on the scheduler with the driver's lock held.
    func onScheduler(_ body: @escaping (GoalClient) -> Void) {
        driver.perform { [self] in body(self) }
    }

    /// Runs `body` at `date` on the scheduler with the driver's lock held.
    func onScheduler(at date: Date, _ body: @escaping (GoalClient) -> Void) -> (any Disposable)? {
        driver.perform(at: date) { [self] in body(self) }
    }

    /// The scheduler's clock.
    var now: Date { scheduler.currentDate }
}
