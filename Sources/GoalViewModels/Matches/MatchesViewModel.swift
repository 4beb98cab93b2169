public import GoalClient
public import GoalModel
public import GoalReactive

/// The match list (SwiftGoal's `MatchesViewModel`): rows "A, B" / "2 : 1", newest first, live.
///
/// Inputs: `active`, `refreshObserver`, `select(_:)` / `moveCursor(by:)`, `deleteAction` (a match as the user saw
/// it), `adjustGoalsAction` (a goal more or less on one side of a match). Outputs: `title` "Matches",
/// `contentChanges` (`RowChanges`), `isLoading`, `alertMessages`, `cursor` (the selection, which follows its
/// match across live updates); child view models for new and existing matches.
///
/// Actions name matches by id, never by row, so a match arriving above the selection never redirects them; a
/// delete carries the revision the user saw as its base, so the server refuses it (`conflict`, shown as an
/// alert) if someone else changed the match since. A successful delete triggers a refresh; every error becomes
/// an alert message. Another client's commit arrives as `RowChanges` without a refresh; rows of matches with a
/// pending mutation are marked, and a match being created shows at the top, marked pending, until the server
/// answers. A pending goal shows the score it will have (optimistic). When another client deletes the selected
/// match, the cursor moves to a neighbour and `alertMessages` says "A vs B was deleted by someone else".
/// Each row carries its match's date (`MatchRow.created`): recorded from the changeset that created the match,
/// or, for matches the replica got from a snapshot, asked from the server's history for the rows the view says it
/// shows (`showing(_:)`), one request at a time (`MatchDateLoader`); a row whose date arrives is a modification.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view; every
/// observation of the store ends with `lifetime` (when the view model is released).
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
    /// The selected match and its row; `removedByOther` is set when another client deleted the selected match
    /// (the selection then moved to a neighbour).
    public var cursor: Property<ListCursor<MatchID>> { feed.cursor }
    /// Deletes a match, with the revision the user saw it at as base.
    public let deleteAction: Action<ShownEntity<MatchID>, MutationAck, MutationError>
    /// Adds or takes goals on one side of a match (`adjust_goals`, based on the list as shown). An execution
    /// ends as soon as the mutation is created, without waiting for the server, so quick presses in a row are
    /// never refused as "disabled"; the row is marked pending until the server answers, and a refusal arrives
    /// on `alertMessages`.
    public let adjustGoalsAction: Action<GoalAdjustment, Void, Never>
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let store: any LeagueStore
    private let feed: ListFeed<MatchRow>
    private let dates: MatchDateLoader
    private let token: Lifetime.Token

    /// - Parameter store: The league (injected; no singletons).
    public init(store: any LeagueStore) {
        self.store = store
        let (lifetime, token) = Lifetime.make()
        self.lifetime = lifetime
        self.token = token
        let dates = MatchDateLoader(store: store, lifetime: lifetime)
        self.dates = dates
        let applied = AppliedHere()
        // This client's own changeset reaches the replica before its ack empties the outbox: its goals are then
        // in the replica and must no longer be added optimistically.
        let feed = ListFeed<MatchRow>(
            store: store,
            beforeUpdate: { update in
                dates.record(update)
                applied.list.record(update)
                guard case .changeset(let changeset) = update, let id = changeset.mutationID,
                    id.instance == store.clientInstance
                else { return }
                applied.ids.insert(id)
            },
            source: .patched(
                { replica, pending in
                    applied.ids.formIntersection(pending.map(\.id))
                    let changes = applied.list.update(
                        to: replica,
                        pending: PendingSet(pending, replica: replica),
                        score: OptimisticScore(pending, replica: replica, applied: applied.ids),
                        dates: dates.dates
                    )
                    return (applied.list.rows, changes)
                },
                index: { applied.list.index(of: $0) }
            )
        )
        self.feed = feed
        dates.learned = { [weak feed] id in
            applied.list.redate(id)
            feed?.reload()
        }
        let (refreshSignal, refreshObserver) = Signal<(), Never>.pipe()
        self.refreshObserver = refreshObserver
        deleteAction = Action { [weak feed] (match: ShownEntity<MatchID>) in
            feed?.removingHere.insert(match.id)
            return store.submit(.deleteMatch(id: match.id), base: match.revision)
                .on(terminated: { [weak feed] in feed?.removingHere.remove(match.id) })
        }
        adjustGoalsAction = Action { [weak feed] (adjustment: GoalAdjustment) -> SignalProducer<Void, Never> in
            guard let feed else { return .empty }
            let action = MutationAction.adjustGoals(
                id: adjustment.match,
                side: adjustment.side,
                delta: adjustment.delta
            )
            // The answer is followed until it arrives or the view model goes; it is not added to `lifetime`,
            // whose disposables would otherwise grow with every press.
            store.submit(action, base: feed.shownRevision)
                .take(during: lifetime)
                .startWithFailed { [weak feed] error in
                    feed?.alert(error.alertMessage(replica: store.replica.value))
                }
            return SignalProducer(value: ())
        }
        lifetime += refreshSignal.observeValues { [weak feed] in feed?.refresh() }
        lifetime += feed.selectionRemovedByOther.observeValues { [weak feed] row in
            feed?.alert("\(row.homePlayers) vs \(row.awayPlayers) was deleted by someone else")
        }
        lifetime += deleteAction.values.observeValues { [weak feed] _ in feed?.refresh() }
        lifetime += deleteAction.errors.observeValues { [weak feed] in
            feed?.alert($0.alertMessage(replica: store.replica.value))
        }
    }

    public var numberOfSections: Int { 1 }

    public func numberOfMatches(inSection section: Int) -> Int { feed.rows.count }

    /// The rows as shown: a persistent list (O(log n) per index; copies share their storage), so reading it after
    /// every change costs nothing.
    public var rows: PersistentList<MatchRow> { feed.rows }

    /// The row of match `id` as shown, if the list shows it.
    public func row(for id: MatchID) -> MatchRow? { feed.row(of: id) }

    /// The selected match as the user sees it now (the input of `deleteAction`); nil in an empty list.
    public var selectedMatch: ShownEntity<MatchID>? { feed.cursor.value.id.flatMap(feed.shown) }

    /// The match at a row as shown now — what a click on that row names (capture it at the click).
    public func shownMatch(at row: Int) -> ShownEntity<MatchID> {
        ShownEntity(id: feed.rows[row].id, revision: feed.shownRevision)
    }

    /// The view shows these matches now (its visible rows, top first): their unknown dates are asked from the
    /// server's history, one request at a time; each date that arrives updates its row. Call it whenever the
    /// visible rows change; it never blocks.
    public func showing(_ ids: [MatchID]) { dates.show(ids) }

    /// Selects match `id` (ignored if the list does not show it).
    public func select(_ id: MatchID) { feed.select(id) }

    /// Moves the selection by `delta` rows, clamped to the list.
    public func moveCursor(by delta: Int) { feed.moveCursor(by: delta) }

    public func homePlayers(at row: Int) -> String { feed.rows[row].homePlayers }

    public func awayPlayers(at row: Int) -> String { feed.rows[row].awayPlayers }

    /// "2 : 1".
    public func result(at row: Int) -> String { feed.rows[row].result }

    public func isPending(at row: Int) -> Bool { feed.rows[row].isPending }

    /// The edit form for a new match.
    public func editViewModelForNewMatch() -> EditMatchViewModel {
        EditMatchViewModel(store: store)
    }

    /// The edit form for match `id`; it captures the current revision as its base.
    public func editViewModel(for id: MatchID) -> EditMatchViewModel {
        EditMatchViewModel(store: store, matchID: id)
    }

    /// Matches being created first (pending, newest first), then the replica's matches newest first (`listed`,
    /// brought to `replica`); a match with a pending mutation is marked pending and shows the score it will have
    /// (`OptimisticScore`); each row with its date when `dates` knows it. Only those rows are made here, as
    /// replacements and insertions on `listed`'s persistent rows (O(p log n) for p pending mutations); the others
    /// are shared as they are.
    nonisolated static func rows(
        _ listed: MatchListRows,
        replica: ReplicaState,
        pending: PendingSet,
        score: OptimisticScore,
        dates: MatchDates
    ) -> PersistentList<MatchRow> {
        var rows = listed.rows
        for id in pending.matches {
            guard let index = listed.index(of: id), let match = replica.matches[id] else { continue }
            rows[index] = MatchListRows.row(
                match,
                in: replica,
                result: score.result(of: match),
                isPending: true,
                created: dates[match.id]
            )
        }
        for (index, match) in pending.createdMatches.enumerated() {
            let row = MatchListRows.row(
                match,
                in: replica,
                result: score.result(of: match),
                isPending: pending.matches.contains(match.id),
                created: dates[match.id]
            )
            rows.insert(row, at: index)
        }
        return rows
    }
}

/// Ids of this client's pending mutations whose changeset the replica already holds (see `OptimisticScore`), and
/// the rows shown, kept from change to change (`MatchListShown`). Main-actor confined, like its view model.
@MainActor
private final class AppliedHere {
    var ids: Set<MutationID> = []
    var list = MatchListShown()
}
