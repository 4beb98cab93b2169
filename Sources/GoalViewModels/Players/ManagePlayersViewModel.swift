public import GoalClient
public import GoalModel
public import GoalReactive

/// The player list with selection, shared with the add-player form ("Sharing state between views"): one view
/// model backs both the picker and the modal form, so a new player appears in the list at once.
///
/// Inputs: `active`, `refreshObserver`, `playerName`, `saveAction` (creates a player named `playerName`),
/// `selectPlayer(_:)` / `deselectPlayer(_:)` / `togglePlayer(_:)` (by player id, never by row), the cursor
/// (`select(_:)`, `moveCursor(by:)`). Outputs: `title` "Players", `contentChanges`, `isLoading`,
/// `alertMessages`, `cursor` (the UI's selection, which follows its player when rows arrive, leave or move — a
/// rename re-sorts the list), `selectedPlayers` (bound into an `EditMatchViewModel` with `<~`), `inputIsValid` and
/// `nameProblem`: the name must satisfy the name rules (`PlayerName`, docs/RULES.md "Domain rules") and be unique
/// by key against the replica. A successful save clears `playerName` and refreshes; errors become alert messages.
/// A player being created is listed at once, marked pending, until the server answers.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its views; every
/// observation of the store (the name check follows the replica) ends with `lifetime`.
@MainActor
public final class ManagePlayersViewModel {
    public let title = "Players"
    public var active: MutableProperty<Bool> { feed.active }
    public let refreshObserver: Signal<(), Never>.Observer
    public var contentChanges: Signal<RowChanges, Never> { feed.contentChanges }
    public var isLoading: Property<Bool> { feed.isLoading }
    public var alertMessages: Signal<String, Never> { feed.alertMessages }
    /// The player under the UI's cursor and its row (not the chosen players: see `selectedPlayers`).
    public var cursor: Property<ListCursor<PlayerID>> { feed.cursor }

    /// The name typed into the add-player form.
    public let playerName = MutableProperty("")
    /// Why `playerName` cannot be saved (nil when it can).
    public let nameProblem: Property<String?>
    public let inputIsValid: Property<Bool>
    /// The chosen players.
    public let selectedPlayers: MutableProperty<Set<PlayerID>>
    /// Players that cannot be chosen (they play on the other side).
    public let disabledPlayers: Set<PlayerID>
    /// Creates a player named `playerName`; the new player is chosen (`selectedPlayers`) once the server
    /// commits it, so a picker can add a player on the spot.
    public let saveAction: Action<Void, MutationAck, MutationError>
    /// Renames a player (the server checks the name and the role).
    public let renameAction: Action<PlayerRename, MutationAck, MutationError>
    /// Deletes a player (admin only; refused while a match references the player).
    public let deleteAction: Action<ShownEntity<PlayerID>, MutationAck, MutationError>
    /// What a rename or delete did, worded as `goal-client players rename/delete` words it: "renamed player
    /// 3f2a9c1e to Bea: committed at r9", "deleted player 3f2a9c1e (Bea): committed at r10".
    public let notices: Signal<String, Never>
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let feed: ListFeed<PlayerRow>
    private let token: Lifetime.Token

    /// - Parameters:
    ///   - store: The league.
    ///   - initialPlayers: The players selected at first.
    ///   - disabledPlayers: The players that cannot be selected.
    public init(store: any LeagueStore, initialPlayers: Set<PlayerID> = [], disabledPlayers: Set<PlayerID> = []) {
        self.disabledPlayers = disabledPlayers
        selectedPlayers = MutableProperty(initialPlayers)
        let feed = ListFeed<PlayerRow>(store: store) { replica, pending in
            ManagePlayersViewModel.rows(replica, pending: PendingSet(pending, replica: replica))
        }
        self.feed = feed
        let (lifetime, token) = Lifetime.make()
        self.lifetime = lifetime
        self.token = token
        let (refreshSignal, refreshObserver) = Signal<(), Never>.pipe()
        self.refreshObserver = refreshObserver
        nameProblem = Property.combineLatest(playerName, store.replica.during(lifetime)).map { name, replica in
            ManagePlayersViewModel.problem(with: name, in: replica)
        }
        inputIsValid = nameProblem.map { $0 == nil }
        let playerName = self.playerName
        let selected = selectedPlayers
        saveAction = Action(enabledIf: inputIsValid) { () -> SignalProducer<MutationAck, MutationError> in
            let id = PlayerID()
            return store.submit(.createPlayer(id: id, name: playerName.value), base: store.replica.value.revision)
                .on(value: { _ in
                    if !disabledPlayers.contains(id) { selected.modify { _ = $0.insert(id) } }
                })
        }
        let (notices, noticeInput) = Signal<String, Never>.pipe()
        self.notices = notices
        renameAction = Action { (rename: PlayerRename) -> SignalProducer<MutationAck, MutationError> in
            store.submit(.renamePlayer(id: rename.player.id, name: rename.name), base: rename.player.revision)
                .on(value: { ack in
                    noticeInput.send(
                        value: "renamed player \(rename.player.id.shortID) to \(rename.name): \(ack.summary)"
                    )
                })
        }
        deleteAction = Action { [weak feed] (player: ShownEntity<PlayerID>) in
            let name = store.replica.value.players[player.id]?.name ?? player.id.shortID
            feed?.removingHere.insert(player.id)
            return store.submit(.deletePlayer(id: player.id), base: player.revision)
                .on(
                    terminated: { [weak feed] in feed?.removingHere.remove(player.id) },
                    value: { ack in
                        noticeInput.send(value: "deleted player \(player.id.shortID) (\(name)): \(ack.summary)")
                    }
                )
        }
        lifetime += refreshSignal.observeValues { [weak feed] in feed?.refresh() }
        lifetime += feed.selectionRemovedByOther.observeValues { [weak feed] row in
            feed?.alert("\(row.name) was deleted by someone else")
        }
        lifetime += saveAction.values.observeValues { [weak feed] _ in
            playerName.value = ""
            feed?.refresh()
        }
        for errors in [saveAction.errors, renameAction.errors, deleteAction.errors] {
            lifetime += errors.observeValues { [weak feed] in feed?.alert($0.alertMessage(replica: store.replica.value))
            }
        }
    }

    public var numberOfSections: Int { 1 }

    public func numberOfPlayers(inSection section: Int) -> Int { feed.rows.count }

    /// The rows as shown.
    public var rows: [PlayerRow] { feed.rebuiltRows }

    public func playerName(at row: Int) -> String { feed.rows[row].name }

    public func isPlayerSelected(at row: Int) -> Bool { isPlayerSelected(feed.rows[row].id) }

    /// False for disabled players.
    public func canSelectPlayer(at row: Int) -> Bool { canSelectPlayer(feed.rows[row].id) }

    public func isPending(at row: Int) -> Bool { feed.rows[row].isPending }

    public func isPlayerSelected(_ id: PlayerID) -> Bool { selectedPlayers.value.contains(id) }

    /// False for disabled players.
    public func canSelectPlayer(_ id: PlayerID) -> Bool { !disabledPlayers.contains(id) }

    /// The player under the cursor as the user sees it now (the input of `deleteAction` and `renameAction`).
    public var shownPlayerAtCursor: ShownEntity<PlayerID>? { feed.cursor.value.id.flatMap(feed.shown) }

    /// The player under the cursor (nil in an empty list).
    public var playerAtCursor: PlayerID? { feed.cursor.value.id }

    /// Puts the cursor on player `id` (ignored if the list does not show it).
    public func select(_ id: PlayerID) { feed.select(id) }

    /// Moves the cursor by `delta` rows, clamped to the list.
    public func moveCursor(by delta: Int) { feed.moveCursor(by: delta) }

    /// Adds player `id` to the chosen players (ignored for a disabled player).
    public func selectPlayer(_ id: PlayerID) {
        guard canSelectPlayer(id) else { return }
        selectedPlayers.modify { _ = $0.insert(id) }
    }

    /// Removes player `id` from the chosen players.
    public func deselectPlayer(_ id: PlayerID) {
        selectedPlayers.modify { _ = $0.remove(id) }
    }

    /// Chooses player `id` if not chosen (and not disabled), else un-chooses it.
    public func togglePlayer(_ id: PlayerID) {
        if isPlayerSelected(id) { deselectPlayer(id) } else { selectPlayer(id) }
    }

    /// Every player by name, players being created among them (marked pending).
    static func rows(_ replica: ReplicaState, pending: PendingSet) -> [PlayerRow] {
        var entries = replica.players.values.map {
            (key: $0.nameKey, row: PlayerRow(id: $0.id, name: $0.name, isPending: pending.players.contains($0.id)))
        }
        for created in pending.createdPlayers {
            entries.append((created.name.key, PlayerRow(id: created.id, name: created.name.value, isPending: true)))
        }
        return entries.sorted { lhs, rhs in
            lhs.key != rhs.key ? lhs.key < rhs.key : lhs.row.id < rhs.row.id
        }.map(\.row)
    }

    /// Why a name cannot be used: the name rules (docs/RULES.md "Domain rules"), then uniqueness by key.
    static func problem(with raw: String, in replica: ReplicaState) -> String? {
        let name: PlayerName
        do {
            name = try PlayerName(validating: raw)
        } catch {
            return error.description
        }
        if let existing = replica.players.values.first(where: { $0.nameKey == name.key }) {
            return "a player named \"\(existing.name)\" already exists"
        }
        return nil
    }
}
