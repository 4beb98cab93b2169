public import GoalModel
public import GoalReactive
public import GoalWire

/// The `LeagueStore` of a running app: a `GoalClient`'s replica, outbox and status, re-delivered on one
/// scheduler (the main thread by default) so `@MainActor` view models can observe them.
///
/// Threading: outputs change and emit only on `deliveryScheduler`, in the order the client produced them;
/// `submit` and `refresh` may be called from any thread and their producers deliver on `deliveryScheduler` too.
/// Lifetime: holds the client; the mirrors stop when the store deinitializes.
public final class LiveLeagueStore: LeagueStore {
    public let client: GoalClient
    public let replica: Property<ReplicaState>
    public let updates: Signal<ReplicaUpdate, Never>
    public let pendingMutations: Property<[PendingMutation]>
    public let status: Property<ConnectionStatus>
    public let presence: Property<[PresenceMember]>
    private let deliveryScheduler: any Scheduler
    private let token = Lifetime.Token()

    /// - Parameters:
    ///   - client: The client to mirror (start it separately).
    ///   - deliveryScheduler: Where outputs are delivered (`MainScheduler()` for view models).
    public init(client: GoalClient, deliveryScheduler: any Scheduler = MainScheduler()) {
        self.client = client
        self.deliveryScheduler = deliveryScheduler
        let lifetime = Lifetime(token)
        replica = LiveLeagueStore.mirror(client.replica, on: deliveryScheduler, lifetime: lifetime)
        pendingMutations = LiveLeagueStore.mirror(client.pendingMutations, on: deliveryScheduler, lifetime: lifetime)
        status = LiveLeagueStore.mirror(client.status, on: deliveryScheduler, lifetime: lifetime)
        presence = LiveLeagueStore.mirror(client.presence, on: deliveryScheduler, lifetime: lifetime)
        let (updates, input) = Signal<ReplicaUpdate, Never>.pipe()
        self.updates = updates
        lifetime += client.updates.observe(on: deliveryScheduler).observeValues { input.send(value: $0) }
    }

    public var serverName: String { client.configuration.serverName }
    public var clientInstance: ClientInstanceID { client.clientInstance }

    public func submit(_ action: MutationAction, base: Revision) -> SignalProducer<MutationAck, MutationError> {
        client.submit(action, base: base).observe(on: deliveryScheduler)
    }

    public func announce(_ activity: PresenceActivity) {
        client.announce(activity)
    }

    public func refresh() -> SignalProducer<Revision, StoreError> {
        client.refresh().observe(on: deliveryScheduler)
    }

    public func history(_ request: HistoryRequest) -> SignalProducer<HistoryPageMessage, HistoryError> {
        client.history(request).observe(on: deliveryScheduler)
    }

    /// A property holding `source`'s values, set on `scheduler`.
    private static func mirror<Value>(
        _ source: Property<Value>,
        on scheduler: any Scheduler,
        lifetime: Lifetime
    ) -> Property<Value> {
        let storage = MutableProperty(source.value)
        // The producer replays the current value and subscribes atomically, so no change is lost in between.
        lifetime += source.producer.observe(on: scheduler).startWithValues { storage.value = $0 }
        return Property(capturing: storage)
    }
}
