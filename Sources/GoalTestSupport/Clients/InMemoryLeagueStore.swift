import Foundation
public import GoalClient
public import GoalModel
public import GoalReactive
import Logging

/// A `LeagueStore` over an `InMemoryLeague`: one client's view, with its own client instance and replica. Two
/// stores over one league behave like two clients of one server — each sees the other's commits as changesets,
/// and edits from stale bases really conflict (GoalModel's `ConflictEngine` decides).
///
/// Test controls (this whole type lives in GoalTestSupport; nothing of it ships): `holdsMutations` keeps submitted mutations pending
/// until `releaseHeldMutations()`; `refreshFailure` makes refreshes fail; `setStatus` sets the reported status;
/// `refreshCount` and `submitted` record the calls.
///
/// Threading: thread-safe, synchronous: a mutation is applied (and its changeset reaches every store's replica)
/// on the calling thread before its producer answers; outputs emit on that thread. `@unchecked Sendable`:
/// mutable state is guarded by `lock` (recursive, because applying a mutation re-enters through the league's
/// broadcast).
public final class InMemoryLeagueStore: LeagueStore, @unchecked Sendable {
    public let league: InMemoryLeague
    public let serverName: String
    public let author: String
    /// The role the "server" grants this store's mutations.
    public let role: Role
    public let replica: Property<ReplicaState>
    public let updates: Signal<ReplicaUpdate, Never>
    public let pendingMutations: Property<[PendingMutation]>
    public let status: Property<ConnectionStatus>
    /// Who is present: tests set `presenceMembers` (nobody by default).
    public var presence: Property<[PresenceMember]> { Property(capturing: presenceMembers) }
    /// The presence list `presence` shows; tests set it to stand for other clients.
    public let presenceMembers = MutableProperty<[PresenceMember]>([])
    /// Every activity announced through this store, in order.
    public var announced: [PresenceActivity] { announcedStorage.value }
    private let announcedStorage = MutableProperty<[PresenceActivity]>([])

    private let minter: InMemoryMutationIDMinter
    private let replicaStorage: MutableProperty<ReplicaState>
    private let pendingStorage = MutableProperty<[PendingMutation]>([])
    private let statusStorage = MutableProperty<ConnectionStatus>(.live(roundTrip: nil))
    private let updatesInput: Signal<ReplicaUpdate, Never>.Observer
    private let lock = NSRecursiveLock()
    private let logger = Logger(label: "goal.client.in-memory-store")
    private var held: [(Mutation, MutationTicket)] = []
    private var subscription: (any Disposable)?
    private var _holdsMutations = false
    private var _refreshFailure: StoreError?
    private var _refreshCount = 0
    private var _submitted: [Mutation] = []

    /// - Parameters:
    ///   - league: The shared league.
    ///   - instance: This store's client instance (random by default).
    ///   - author: The token name its commits carry.
    ///   - role: The role its mutations are checked against (admin by default).
    ///   - serverName: Shown by `ConnectionViewModel`.
    public init(
        league: InMemoryLeague,
        instance: ClientInstanceID = .random(),
        author: String = "test",
        role: Role = .admin,
        serverName: String = "in-memory"
    ) {
        self.league = league
        self.author = author
        self.role = role
        self.serverName = serverName
        minter = InMemoryMutationIDMinter(instance: instance)
        replicaStorage = MutableProperty(ReplicaState())
        replica = Property(capturing: replicaStorage)
        pendingMutations = Property(capturing: pendingStorage)
        status = Property(capturing: statusStorage)
        (updates, updatesInput) = Signal.pipe()
        let (snapshot, subscription) = league.subscribe { [weak self] changeset in self?.receive(changeset) }
        self.subscription = subscription
        replicaStorage.value = ReplicaState(snapshot)
    }

    deinit {
        subscription?.dispose()
    }

    public var clientInstance: ClientInstanceID { minter.instance }

    public func announce(_ activity: PresenceActivity) {
        announcedStorage.modify { $0.append(activity) }
    }

    /// While true, submitted mutations stay pending (as if the server were unreachable).
    public var holdsMutations: Bool {
        get { lock.withLock { _holdsMutations } }
        set { lock.withLock { _holdsMutations = newValue } }
    }

    /// When set, every refresh fails with it.
    public var refreshFailure: StoreError? {
        get { lock.withLock { _refreshFailure } }
        set { lock.withLock { _refreshFailure = newValue } }
    }

    /// How many refreshes were started.
    public var refreshCount: Int { lock.withLock { _refreshCount } }

    /// Every mutation submitted, in order.
    public var submitted: [Mutation] { lock.withLock { _submitted } }

    /// Sets the connection status the store reports.
    public func setStatus(_ status: ConnectionStatus) {
        statusStorage.value = status
    }

    public func submit(_ action: MutationAction, base: Revision) -> SignalProducer<MutationAck, MutationError> {
        let mutation = Mutation(id: minter.mint(), base: base, action: action)
        let ticket = MutationTicket(id: mutation.id)
        lock.withLock {
            _submitted.append(mutation)
            if _holdsMutations {
                held.append((mutation, ticket))
                publishPending()
            } else {
                deliver(mutation, ticket)
            }
        }
        return ticket.producer
    }

    /// Sends every held mutation, in order (`holdsMutations` is left as it is). Like a server, each is committed
    /// (and its changeset reaches every replica) before it leaves `pendingMutations` and its producer answers.
    public func releaseHeldMutations() {
        lock.withLock {
            while !held.isEmpty {
                let (mutation, ticket) = held[0]
                let outcome = league.apply(mutation, author: author, role: role)
                held.removeFirst()
                publishPending()
                ticket.resolve(InMemoryLeagueStore.result(of: outcome, id: mutation.id))
            }
        }
    }

    public func refresh() -> SignalProducer<Revision, StoreError> {
        SignalProducer { [weak self] observer, _ in
            guard let self else { return }
            let failure = lock.withLock {
                _refreshCount += 1
                return _refreshFailure
            }
            if let failure {
                observer.send(error: failure)
            } else {
                observer.send(value: replica.value.revision)
                observer.sendCompleted()
            }
        }
    }

    private func deliver(_ mutation: Mutation, _ ticket: MutationTicket) {
        ticket.resolve(
            InMemoryLeagueStore.result(of: league.apply(mutation, author: author, role: role), id: mutation.id)
        )
    }

    private static func result(of outcome: MutationOutcome, id: MutationID) -> Result<MutationAck, MutationError> {
        switch outcome {
        case .committed(let revision): .success(MutationAck(id: id, revision: revision, noop: false))
        case .noop(let revision): .success(MutationAck(id: id, revision: revision, noop: true))
        case .rejected(let rejection): .failure(MutationError(.rejected(rejection), id: id))
        }
    }

    private func receive(_ changeset: Changeset) {
        lock.withLock {
            var next = replicaStorage.value
            do {
                guard try next.apply(changeset) else { return }  // a changeset this replica already holds
            } catch {
                // The league emits its changesets in order, so a replica that cannot take one missed one: say so
                // (a real client would resync) instead of silently freezing this view.
                logger.error(
                    "in-memory replica cannot apply a changeset",
                    metadata: ["goal.revision": "\(changeset.revision)", "goal.error": "\(error)"]
                )
                return
            }
            replicaStorage.value = next
            updatesInput.send(value: .changeset(changeset))
        }
    }

    private func publishPending() {
        pendingStorage.value = held.map { PendingMutation(mutation: $0.0, isSent: false) }
    }
}
