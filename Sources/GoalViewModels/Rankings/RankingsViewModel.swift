public import GoalClient
public import GoalModel
public import GoalReactive

/// The rankings (SwiftGoal's `RankingsViewModel`): every player, best rating first, ratings as `"%.2f"`, with
/// played, won, drawn and lost beside the rating (as `goal-client rankings`).
///
/// Inputs: `active`, `refreshObserver`, the cursor (`select(_:)`, `moveCursor(by:)`). Outputs: `title`
/// "Rankings", `contentChanges`, `isLoading`, `alertMessages`, `cursor` (the UI's selection, which follows its
/// player when the ranking re-orders). A commit that re-orders players arrives live as `RowChanges.moves` (plus
/// modifications for changed ratings or names).
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view; every
/// observation of the store ends with `lifetime`.
@MainActor
public final class RankingsViewModel {
    public let title = "Rankings"
    public var active: MutableProperty<Bool> { feed.active }
    public let refreshObserver: Signal<(), Never>.Observer
    public var contentChanges: Signal<RowChanges, Never> { feed.contentChanges }
    public var isLoading: Property<Bool> { feed.isLoading }
    public var alertMessages: Signal<String, Never> { feed.alertMessages }
    /// The player under the UI's cursor and its row.
    public var cursor: Property<ListCursor<PlayerID>> { feed.cursor }
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let feed: ListFeed<RankingRow>
    private let token: Lifetime.Token

    /// - Parameter store: The league (injected).
    public init(store: any LeagueStore) {
        feed = ListFeed(store: store) { replica, _ in RankingsViewModel.rows(replica) }
        let (refreshSignal, refreshObserver) = Signal<(), Never>.pipe()
        self.refreshObserver = refreshObserver
        (lifetime, token) = Lifetime.make()
        lifetime += refreshSignal.observeValues { [weak feed] in feed?.refresh() }
    }

    public var numberOfSections: Int { 1 }

    /// Puts the cursor on player `id` (ignored if the rankings do not show it).
    public func select(_ id: PlayerID) { feed.select(id) }

    /// Moves the cursor by `delta` rows, clamped to the list.
    public func moveCursor(by delta: Int) { feed.moveCursor(by: delta) }

    public func numberOfRankings(inSection section: Int) -> Int { feed.rows.count }

    /// The rows as shown.
    public var rows: [RankingRow] { feed.rebuiltRows }

    public func playerName(at row: Int) -> String { feed.rows[row].name }

    /// The rating with two decimals ("10.00").
    public func rating(at row: Int) -> String { feed.rows[row].rating }

    static func rows(_ replica: ReplicaState) -> [RankingRow] {
        replica.rankings().map { rating in
            RankingRow(
                id: rating.playerID,
                name: replica.players[rating.playerID]?.name ?? "?\(rating.playerID.shortID)",
                rating: rating.formatted,
                played: rating.played,
                won: rating.won,
                drawn: rating.drawn,
                lost: rating.lost
            )
        }
    }
}
