import GoalModel
import GoalReactive
import GoalViewModels

/// Key handling: every key becomes a view-model input (or a change of what is shown).
extension LiveApp {
    func handle(_ key: Key) {
        if key == .controlC {
            quit()
            return
        }
        if key == .controlZ {
            suspend()
            return
        }
        switch mode {
        case .help:
            mode = .browse
        case .confirmDelete(let match):
            // The prompt names one match; if it is gone meanwhile there is nothing left to confirm.
            if key == .character("y"), matches.row(for: match.id) != nil {
                matches.deleteAction.apply(match).start()
            }
            mode = .browse
        case .newPlayer:
            handleNewPlayer(key)
        case .renamePlayer(let player, let name):
            handleRename(key, player: player, name: name)
        case .confirmDeletePlayer(let player):
            if key == .character("y"), players.rows.contains(where: { $0.id == player.id }) {
                players.deleteAction.apply(player).start()
            }
            mode = .browse
        case .edit(let form):
            if !form.handle(key) { mode = .browse }
        case .leagues:
            handleLeaguePicker(key)
        case .browse:
            handleBrowse(key)
            followSelectionWithHistory()
        }
    }

    private func handleNewPlayer(_ key: Key) {
        switch key {
        case .escape:
            players.playerName.value = ""
            mode = .browse
        case .enter:
            players.saveAction.apply(()).start()
        case .backspace:
            players.playerName.modify { if !$0.isEmpty { $0.removeLast() } }
        case .character(let character):
            players.playerName.modify { $0.append(character) }
        default:
            break
        }
    }

    /// The rename prompt: typing edits the name, enter renames (the prompt closes once the server commits; a
    /// refusal shows in the banner and the prompt stays), escape cancels.
    private func handleRename(_ key: Key, player: ShownEntity<PlayerID>, name: String) {
        switch key {
        case .escape:
            mode = .browse
        case .enter:
            players.renameAction.apply(PlayerRename(player: player, name: name)).start()
        case .backspace:
            mode = .renamePlayer(player, String(name.dropLast()))
        case .character(let character):
            mode = .renamePlayer(player, name + String(character))
        default:
            break
        }
    }

    private func handleBrowse(_ key: Key) {
        switch key {
        case .character("q"):
            quit()
        case .tab:
            tab = Tab(rawValue: (tab.rawValue + 1) % Tab.allCases.count) ?? .matches
        case .backTab:
            tab = Tab(rawValue: (tab.rawValue + Tab.allCases.count - 1) % Tab.allCases.count) ?? .matches
        case .character("1"): tab = .matches
        case .character("2"): tab = .rankings
        case .character("3"): tab = .players
        case .up, .character("k"): moveSelection(-1)
        case .down, .character("j"): moveSelection(1)
        case .pageUp: moveSelection(-pageSize)
        case .pageDown: moveSelection(pageSize)
        case .home, .character("g"): moveSelection(-Self.farAway)
        case .end, .character("G"): moveSelection(Self.farAway)
        case .enter: openSelected()
        case .left where tab == .matches: scoringSide = .home
        case .right where tab == .matches: scoringSide = .away
        case .character("?"): mode = .help
        case .character("h"): toggleHistory()
        case .character("l"): openLeaguePicker()
        case .character("c"):
            // Not live: reconnect now (skip the countdown, or start a stopped client). Live: nothing to do.
            if connection.isStale.value { connection.reconnectNow() }
        case .character("]") where historyPane != nil: pageHistory(older: true)
        case .character("[") where historyPane != nil: pageHistory(older: false)
        case .character("r"):
            // Refresh only. While not live a refresh would reconnect (GoalClient.refresh skips the wait): that is
            // c's job, so r says so instead.
            guard !connection.isStale.value else {
                show(alert: "not connected, so nothing to refresh: c reconnects now")
                return
            }
            switch tab {
            case .matches: matches.refreshObserver.send(value: ())
            case .rankings: rankings.refreshObserver.send(value: ())
            case .players: players.refreshObserver.send(value: ())
            }
        case .character("p"):
            tab = .players
            players.playerName.value = ""
            mode = .newPlayer
        case .character("n"):
            tab = .matches
            openForm(matches.editViewModelForNewMatch())
        case .character("e") where tab == .matches:
            guard let id = matches.cursor.value.id else { return }
            openForm(matches.editViewModel(for: id))
        case .character("d") where tab == .matches:
            guard let match = matches.selectedMatch else { return }
            mode = .confirmDelete(match)
        case .character("e") where tab == .players:
            renameSelectedPlayer()
        case .character("d") where tab == .players:
            guard let player = players.shownPlayerAtCursor else { return }
            mode = .confirmDeletePlayer(player)
        case .character("+") where tab == .matches, .character("=") where tab == .matches:
            score(1)
        case .character("-") where tab == .matches:
            score(-1)
        default:
            break
        }
    }

    /// Further than any list is long: Home/End move by it (the cursor clamps to the list).
    static let farAway = 1_000_000

    /// The rows a PageUp/PageDown moves: one screen of list rows.
    var pageSize: Int { max(Terminal.size.rows - Self.chromeRows - 1, 1) }

    /// Enter: opens the selected row (a match's edit form; a player's rename prompt; a ranking's player on the
    /// Players tab).
    private func openSelected() {
        switch tab {
        case .matches:
            guard let id = matches.cursor.value.id else { return }
            openForm(matches.editViewModel(for: id))
        case .rankings:
            guard let id = rankings.cursor.value.id else { return }
            tab = .players
            players.select(id)
        case .players:
            renameSelectedPlayer()
        }
    }

    private func renameSelectedPlayer() {
        guard let player = players.shownPlayerAtCursor, let row = players.rows.first(where: { $0.id == player.id })
        else { return }
        mode = .renamePlayer(player, row.name)
    }

    /// The selected row of the current tab (its view model's cursor, which follows its entity).
    func selectedRow() -> Int? {
        switch tab {
        case .matches: matches.cursor.value.row
        case .rankings: rankings.cursor.value.row
        case .players: players.cursor.value.row
        }
    }

    private func moveSelection(_ delta: Int) {
        switch tab {
        case .matches: matches.moveCursor(by: delta)
        case .rankings: rankings.moveCursor(by: delta)
        case .players: players.moveCursor(by: delta)
        }
    }

    private func openForm(_ viewModel: EditMatchViewModel) {
        let form = EditForm(viewModel: viewModel)
        form.onSaved = { [weak self] in
            guard let self, case .edit(let open) = mode, open === form else { return }
            mode = .browse
            setNeedsDisplay()
        }
        form.onAlert = { [weak self] in self?.show(alert: $0) }
        let lifetime = Lifetime(form.lifetimeToken)
        lifetime += viewModel.alertMessages.observeValues { [weak self] in self?.show(alert: $0) }
        lifetime += viewModel.homePlayersString.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        lifetime += viewModel.awayPlayersString.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        lifetime += viewModel.conflict.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        lifetime += viewModel.editingWarning.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        mode = .edit(form)
    }

    /// `+`/`-` on the selected match: an increment through the list's `adjustGoalsAction` (refusals arrive as
    /// the list's alert messages).
    private func score(_ delta: Int) {
        guard let id = matches.cursor.value.id else { return }
        matches.adjustGoalsAction.apply(GoalAdjustment(match: id, side: scoringSide, delta: delta)).start()
    }
}
