public import GoalClient
public import GoalModel
public import GoalReactive

/// The form for a new or an existing match (SwiftGoal's `EditMatchViewModel`).
///
/// The form captures its **base** — the replica's revision — when it is created, and edits are checked against
/// it: if another client changed a field the user also changed, saving fails with a conflict, and
/// `alertMessages` / `conflictAlerts` say which fields changed and show their current values.
///
/// Inputs: `homeGoals`, `awayGoals`; the players of each side through `manageHomePlayersViewModel()` /
/// `manageAwayPlayersViewModel()`, whose `selectedPlayers` is bound back with `<~` (each side's players are
/// disabled in the other side's picker); `saveAction`; for an existing match, `adjustGoalsAction` sends
/// increments (`adjust_goals`), which never conflict with other increments.
/// Outputs: `title` ("New Match" / "Edit Match"), `formattedHomeGoals`, `homePlayersString` ("Set Home Players"
/// while empty, else "A, B"), `inputIsValid` (both sides chosen, disjoint, goals within 0…999), `hasChanges`.
/// `saveAction` is enabled only when the input is valid and, for an existing match, something changed; it sends
/// only the changed fields.
///
/// Threading: `@MainActor`; the store must deliver on the main thread. Lifetime: owned by its view; its
/// observations of the store (the player names follow the replica) end with `lifetime`, so a dropped form
/// leaves nothing behind (a running save keeps its action alive until the server answers).
@MainActor
public final class EditMatchViewModel {
    public let title: String
    /// The revision the form read its values at; every mutation it sends carries it as `base`. Resolving a
    /// conflict (`takeTheirs()`, `keepMine()`) moves it to the revision the current values were read at.
    public var base: Revision { baseStorage.value }
    /// The conflict of the last save, while unresolved: mine vs theirs for the fields involved. Saving is disabled
    /// until it is resolved (it could only conflict again).
    public let conflict: Property<FormConflict?>
    /// "Bob is editing this match" while someone else has this match's edit form open (before a conflict can
    /// happen); nil otherwise and for a new match (`EditingWarning`).
    public let editingWarning: Property<String?>
    /// The match's id (minted now for a new match, so a retried save cannot create two).
    public let matchID: MatchID
    public let isNewMatch: Bool

    public let homeGoals: MutableProperty<Int>
    public let awayGoals: MutableProperty<Int>
    public let formattedHomeGoals: Property<String>
    public let formattedAwayGoals: Property<String>
    public let homePlayersString: Property<String>
    public let awayPlayersString: Property<String>
    /// The chosen players of each side (set through the pickers).
    public let selectedHomePlayers: Property<Set<PlayerID>>
    public let selectedAwayPlayers: Property<Set<PlayerID>>
    public let inputIsValid: Property<Bool>
    /// True when saving would write something.
    public let hasChanges: Property<Bool>
    /// Creates the match, or writes the changed fields of the existing one.
    public let saveAction: Action<Void, MutationAck, MutationError>
    /// Adds `delta` goals to a side of the existing match (disabled for a new match).
    public let adjustGoalsAction: Action<(Side, Int), MutationAck, MutationError>
    /// Messages for an alert: conflicts (see `conflictAlerts`) and other refusals.
    public let alertMessages: Signal<String, Never>
    /// Conflicts on save, with the fields and their current values.
    public let conflictAlerts: Signal<ConflictAlert, Never>
    /// Ends when the view model is released.
    public let lifetime: Lifetime

    private let store: any LeagueStore
    private let homePlayers: MutableProperty<Set<PlayerID>>
    private let awayPlayers: MutableProperty<Set<PlayerID>>
    /// The values the form started from (plus its own acknowledged increments).
    private let original: MutableProperty<MatchDraft>
    private let baseStorage: MutableProperty<Revision>
    private let conflictStorage = MutableProperty<FormConflict?>(nil)
    private let alertInput: Signal<String, Never>.Observer
    private let conflictInput: Signal<ConflictAlert, Never>.Observer
    private let token: Lifetime.Token

    /// - Parameters:
    ///   - store: The league.
    ///   - matchID: The match to edit, or nil for a new match.
    public init(store: any LeagueStore, matchID: MatchID? = nil) {
        self.store = store
        let (lifetime, token) = Lifetime.make()
        self.lifetime = lifetime
        self.token = token
        let replica = store.replica.value
        let match = matchID.flatMap { replica.matches[$0] }
        baseStorage = MutableProperty(replica.revision)
        conflict = Property(capturing: conflictStorage)
        isNewMatch = match == nil
        self.matchID = match?.id ?? MatchID()
        title = match == nil ? "New Match" : "Edit Match"
        let draft = MatchDraft(match)
        original = MutableProperty(draft)
        homeGoals = MutableProperty(draft.homeGoals)
        awayGoals = MutableProperty(draft.awayGoals)
        homePlayers = MutableProperty(Set(draft.homePlayers))
        awayPlayers = MutableProperty(Set(draft.awayPlayers))
        selectedHomePlayers = Property(capturing: homePlayers)
        selectedAwayPlayers = Property(capturing: awayPlayers)
        formattedHomeGoals = homeGoals.map { "\($0)" }
        formattedAwayGoals = awayGoals.map { "\($0)" }
        let liveReplica = store.replica.during(lifetime)
        let (editedMatch, instance) = (self.matchID, store.clientInstance)
        editingWarning = store.presence.during(lifetime).map { members in
            match == nil ? nil : EditingWarning.text(members, match: editedMatch, except: instance)
        }
        homePlayersString = Property.combineLatest(homePlayers, original, liveReplica).map { ids, original, replica in
            ids.isEmpty
                ? "Set Home Players" : replica.names(MatchDraft.ordered(ids, keeping: original.homePlayers, replica))
        }
        awayPlayersString = Property.combineLatest(awayPlayers, original, liveReplica).map { ids, original, replica in
            ids.isEmpty
                ? "Set Away Players" : replica.names(MatchDraft.ordered(ids, keeping: original.awayPlayers, replica))
        }
        let current = Property.combineLatest(homePlayers, awayPlayers, homeGoals, awayGoals)
        inputIsValid = current.map { home, away, homeGoals, awayGoals in
            !home.isEmpty && !away.isEmpty && home.isDisjoint(with: away)
                && Match.goalRange.contains(homeGoals) && Match.goalRange.contains(awayGoals)
        }
        let isNew = match == nil
        hasChanges = Property.combineLatest(current, original).map { values, original in
            isNew || !original.update(home: values.0, away: values.1, homeGoals: values.2, awayGoals: values.3).isEmpty
        }
        (alertMessages, alertInput) = Signal.pipe()
        (conflictAlerts, conflictInput) = Signal.pipe()

        let matchID = self.matchID
        let base = baseStorage
        let saveState = Property.combineLatest(
            Property.combineLatest(inputIsValid, hasChanges, conflictStorage).map { $0 && $1 && $2 == nil },
            current,
            original
        )
        saveAction = Action(
            state: saveState,
            enabledIf: { $0.0 },
            execute: { state, _ in
                let (home, away, homeGoals, awayGoals) = state.1
                let draft = isNew ? nil : state.2
                let action = MatchDraft.saveAction(
                    matchID: matchID,
                    original: draft,
                    home: home,
                    away: away,
                    homeGoals: homeGoals,
                    awayGoals: awayGoals,
                    replica: store.replica.value
                )
                return store.submit(action, base: base.value)
            }
        )
        let original = self.original
        let goals = (home: homeGoals, away: awayGoals)
        adjustGoalsAction = Action(enabledIf: Property(value: !isNew)) { (side: Side, delta: Int) in
            store.submit(.adjustGoals(id: matchID, side: side, delta: delta), base: base.value)
                .on(value: { _ in
                    // The increment is ours: move both the shown and the original value, so it is not a change.
                    original.modify { $0.add(delta, to: side) }
                    let property = side == .home ? goals.home : goals.away
                    property.value += delta
                })
        }
        lifetime += saveAction.errors.observeValues { [weak self] in self?.report($0) }
        lifetime += adjustGoalsAction.errors.observeValues { [weak self] in self?.report($0) }
    }

    /// A player picker for the home side: starts from the home players, disables the away players, and binds
    /// its selection back into the home side.
    public func manageHomePlayersViewModel() -> ManagePlayersViewModel {
        managePlayersViewModel(selection: homePlayers, other: awayPlayers)
    }

    /// A player picker for the away side (the mirror image of `manageHomePlayersViewModel()`).
    public func manageAwayPlayersViewModel() -> ManagePlayersViewModel {
        managePlayersViewModel(selection: awayPlayers, other: homePlayers)
    }

    /// The fields saving would write (empty for a new match or an unchanged one).
    public var pendingUpdate: MatchUpdate {
        guard !isNewMatch else { return MatchUpdate() }
        return original.value.update(
            home: homePlayers.value,
            away: awayPlayers.value,
            homeGoals: homeGoals.value,
            awayGoals: awayGoals.value,
            replica: store.replica.value
        )
    }

    private func managePlayersViewModel(
        selection: MutableProperty<Set<PlayerID>>,
        other: MutableProperty<Set<PlayerID>>
    ) -> ManagePlayersViewModel {
        let viewModel = ManagePlayersViewModel(
            store: store,
            initialPlayers: selection.value,
            disabledPlayers: other.value
        )
        selection <~ viewModel.selectedPlayers
        return viewModel
    }

    /// Resolves a conflict by taking theirs: the form reloads the match as it is now (values and base).
    public func takeTheirs() {
        guard let conflict = conflictStorage.value else { return }
        let draft = MatchDraft(conflict.current)
        rebase(on: draft, at: conflict.current.revision)
        homePlayers.value = Set(draft.homePlayers)
        awayPlayers.value = Set(draft.awayPlayers)
        homeGoals.value = draft.homeGoals
        awayGoals.value = draft.awayGoals
    }

    /// Resolves a conflict by keeping mine: the fields the user changed keep the user's values, every other field
    /// takes theirs, and the base moves to the match as it is now, so saving again writes only mine over theirs.
    public func keepMine() {
        guard let conflict = conflictStorage.value else { return }
        let old = original.value
        let theirs = MatchDraft(conflict.current)
        if homePlayers.value == Set(old.homePlayers) { homePlayers.value = Set(theirs.homePlayers) }
        if awayPlayers.value == Set(old.awayPlayers) { awayPlayers.value = Set(theirs.awayPlayers) }
        if homeGoals.value == old.homeGoals { homeGoals.value = theirs.homeGoals }
        if awayGoals.value == old.awayGoals { awayGoals.value = theirs.awayGoals }
        rebase(on: theirs, at: conflict.current.revision)
    }

    /// Starts over from `draft`, read at `revision` (or the replica's, if newer); the conflict is resolved.
    private func rebase(on draft: MatchDraft, at revision: Revision) {
        baseStorage.value = max(store.replica.value.revision, revision)
        original.value = draft
        conflictStorage.value = nil
    }

    private func report(_ error: MutationError) {
        if let rejection = error.rejection, let alert = ConflictAlert(rejection, replica: store.replica.value) {
            conflictStorage.value = formConflict(rejection)
            conflictInput.send(value: alert)
            alertInput.send(value: alert.message)
        } else {
            alertInput.send(value: error.alertMessage(replica: store.replica.value))
        }
    }

    /// Mine vs theirs for the fields of a conflict (nil without the current match).
    private func formConflict(_ rejection: MutationRejection) -> FormConflict? {
        let replica = store.replica.value
        let current: Match
        if case .match(let match) = rejection.current {
            current = match
        } else if let match = replica.matches[matchID] {
            current = match
        } else {
            return nil
        }
        let home = MatchDraft.ordered(homePlayers.value, keeping: original.value.homePlayers, replica)
        let away = MatchDraft.ordered(awayPlayers.value, keeping: original.value.awayPlayers, replica)
        let fields = rejection.fields.compactMap { field -> FormConflict.Field? in
            let label = ConflictAlert.label(field)
            switch MatchField(rawValue: field) {
            case .homePlayers:
                return .init(label: label, mine: replica.names(home), theirs: replica.names(current.homePlayers))
            case .awayPlayers:
                return .init(label: label, mine: replica.names(away), theirs: replica.names(current.awayPlayers))
            case .homeGoals:
                return .init(label: label, mine: "\(homeGoals.value)", theirs: "\(current.homeGoals)")
            case .awayGoals:
                return .init(label: label, mine: "\(awayGoals.value)", theirs: "\(current.awayGoals)")
            case nil:
                return nil
            }
        }
        return FormConflict(fields: fields, current: current)
    }
}
