public import GoalModel
public import GoalReactive
public import GoalWire

/// What the view models need from the league: the replica and its updates, mutations, refresh, pending
/// mutations and the connection status. View models receive one in their initializer (no singletons), so tests
/// inject `InMemoryLeagueStore` (GoalTestSupport) and apps inject `LiveLeagueStore`.
///
/// Threading: conformers are `Sendable`. Every output is delivered on the thread the conformer documents
/// (`LiveLeagueStore`: its delivery scheduler, the main queue by default; `InMemoryLeagueStore`: the thread that
/// caused the change). `submit` and `refresh` may be called from any thread.
public protocol LeagueStore: AnyObject, Sendable {
    /// The replica: players, matches and ratings at one revision.
    var replica: Property<ReplicaState> { get }
    /// Every applied changeset or snapshot, after `replica` holds it.
    var updates: Signal<ReplicaUpdate, Never> { get }
    /// Mutations created and not yet answered.
    var pendingMutations: Property<[PendingMutation]> { get }
    /// The connection's state.
    var status: Property<ConnectionStatus> { get }
    /// The server as people should see it.
    var serverName: String { get }
    /// The client instance whose mutations this store sends.
    var clientInstance: ClientInstanceID { get }
    /// Who is in the league now (LeagueStore+Presence.swift: none by default).
    var presence: Property<[PresenceMember]> { get }

    /// Says what this client is doing (`.editing(match)` while an edit form is open); ignored by default.
    func announce(_ activity: PresenceActivity)

    /// Creates (mints the id of) and sends a mutation.
    /// - Parameters:
    ///   - action: What to do.
    ///   - base: The revision at which the edited values were read.
    /// - Returns: The ack or a typed `MutationError`; starting it twice never re-runs the mutation.
    func submit(_ action: MutationAction, base: Revision) -> SignalProducer<MutationAck, MutationError>

    /// Brings the replica up to date (reconnecting at once if needed); sends the current revision.
    func refresh() -> SignalProducer<Revision, StoreError>

    /// One page of an entity's history (docs/PROTOCOL.md §4 `history`), answered on the store's delivery thread;
    /// fails with `HistoryError` (LeagueStore+History.swift: `.unsupported` by default).
    func history(_ request: HistoryRequest) -> SignalProducer<HistoryPageMessage, HistoryError>
}
