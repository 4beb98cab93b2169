public import GoalClient
public import GoalModel
public import GoalReactive

/// The match list (SwiftGoal's `MatchesViewModel`): rows "A, B" / "2 : 1", newest first, live.
///
/// Inputs: `active`, `refreshObserver`, `deleteAction` (a row index). Outputs: `title` "Matches",
/// `contentChanges` (`RowChanges`), `isLoading`, `alertMessages`; child view models for new and existing
/// matches. A successful delete triggers a refresh; every error becomes an alert message. Another client's
/// commit arrives as `RowChanges` without a refresh; rows of matches with a pending mutation are marked, and a
/// match being created shows at the top, marked pending, until the server answers.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view.
@MainActor
public final class MatchesViewModel {
    public let title = "Matches"
    /// True while the view is visible and the app in the foreground; becoming true refreshes.
    public var active: MutableProperty<Bool> { feed.active }
    /// Send `()` to refresh (pull to refresh).
    public let refreshObserver: Signal<(), Never>.Observer
    public var contentChanges: Signal<RowChanges, Never> { feed.contentChanges }
    public var isLoading: Property<Bool> { feed.isLoading }
    /// Messages for an "Oops!" alert.
    public var alertMessages: Signal<String, Never> { feed.alertMessages }
    /// Deletes the match at a row, with the list's revision as base.
    public let deleteAction: Action<Int, MutationAck, MutationError>

    private let store: any LeagueStore
    private let feed: ListFeed<MatchRow>
    private let token = Lifetime.Token()

    /// - Parameter store: The league (injected; no singletons).
    public init(store: any LeagueStore) {
        self.store = store
        let feed = ListFeed<MatchRow>(store: store) { replica, pending in
            MatchesViewModel.rows(replica, pending: PendingSet(pending, replica: replica))
        }
        self.feed = feed
        let (refreshSignal, refreshObserver) = Signal<(), Never>.pipe()
        self.refreshObserver = refreshObserver
        deleteAction = Action { [weak feed] (row: Int) -> SignalProducer<MutationAck, MutationError> in
            guard let feed, feed.rows.indices.contains(row) else { return .empty }
            return store.submit(.deleteMatch(id: feed.rows[row].id), base: feed.shownRevision)
        }
        let lifetime = Lifetime(token)
        lifetime += refreshSignal.observeValues { [weak feed] in feed?.refresh() }
        lifetime += deleteAction.values.observeValues { [weak feed] _ in feed?.refresh() }
        lifetime += deleteAction.errors.observeValues { [weak feed] in feed?.alert($0.description) }
    }

    public var numberOfSections: Int { 1 }

    public func numberOfMatches(inSection section: Int) -> Int { feed.rows.count }

    /// The rows as shown.
    public var rows: [MatchRow] { feed.rows }

    public func homePlayers(at row: Int) -> String { feed.rows[row].homePlayers }

    public func awayPlayers(at row: Int) -> String { feed.rows[row].awayPlayers }

    /// "2 : 1".
    public func result(at row: Int) -> String { feed.rows[row].result }

    public func isPending(at row: Int) -> Bool { feed.rows[row].isPending }

    /// The edit form for a new match.
    public func editViewModelForNewMatch() -> EditMatchViewModel {
        EditMatchViewModel(store: store)
    }

    /// The edit form for the match at a row; it captures the current revision as its base.
    public func editViewModel(forMatchAt row: Int) -> EditMatchViewModel {
        EditMatchViewModel(store: store, matchID: feed.rows[row].id)
    }

    /// Matches being created first (pending, newest first), then the replica's matches newest first.
    static func rows(_ replica: ReplicaState, pending: PendingSet) -> [MatchRow] {
        (pending.createdMatches + replica.matchesNewestFirst()).map { match in
            MatchRow(
                id: match.id,
                homePlayers: replica.names(match.homePlayers),
                awayPlayers: replica.names(match.awayPlayers),
                result: "\(match.homeGoals) : \(match.awayGoals)",
                isPending: pending.matches.contains(match.id)
            )
        }
    }
}
