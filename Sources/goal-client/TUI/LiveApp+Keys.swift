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
        switch mode {
        case .help:
            mode = .browse
        case .confirmDelete(let row):
            if key == .character("y") {
                matches.deleteAction.apply(row).start()
            }
            mode = .browse
        case .newPlayer:
            handleNewPlayer(key)
        case .edit(let form):
            if !form.handle(key) { mode = .browse }
        case .browse:
            handleBrowse(key)
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
        case .pageUp: moveSelection(-10)
        case .pageDown: moveSelection(10)
        case .left where tab == .matches: scoringSide = .home
        case .right where tab == .matches: scoringSide = .away
        case .character("?"): mode = .help
        case .character("r"):
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
            guard let row = selectedRow(count: matches.rows.count) else { return }
            openForm(matches.editViewModel(forMatchAt: row))
        case .character("d") where tab == .matches:
            guard let row = selectedRow(count: matches.rows.count) else { return }
            mode = .confirmDelete(row: row)
        case .character("+") where tab == .matches, .character("=") where tab == .matches:
            score(1)
        case .character("-") where tab == .matches:
            score(-1)
        default:
            break
        }
    }

    /// The selected row of the current tab, clamped to `count`.
    func selectedRow(count: Int) -> Int? {
        guard count > 0 else { return nil }
        return min(max(selection[tab] ?? 0, 0), count - 1)
    }

    private func moveSelection(_ delta: Int) {
        let count =
            switch tab {
            case .matches: matches.rows.count
            case .rankings: rankings.rows.count
            case .players: players.rows.count
            }
        selection[tab] = min(max((selection[tab] ?? 0) + delta, 0), max(count - 1, 0))
    }

    private func openForm(_ viewModel: EditMatchViewModel) {
        let form = EditForm(viewModel: viewModel)
        form.onSaved = { [weak self] in
            guard let self, case .edit(let open) = mode, open === form else { return }
            mode = .browse
            setNeedsDisplay()
        }
        let lifetime = Lifetime(form.lifetimeToken)
        lifetime += viewModel.alertMessages.observeValues { [weak self] in self?.show(alert: $0) }
        lifetime += viewModel.homePlayersString.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        lifetime += viewModel.awayPlayersString.signal.observeValues { [weak self] _ in self?.setNeedsDisplay() }
        mode = .edit(form)
    }

    /// `+`/`-` on the selected match: an increment through the edit view model's `adjustGoalsAction`.
    private func score(_ delta: Int) {
        guard let row = selectedRow(count: matches.rows.count) else { return }
        let viewModel = matches.editViewModel(forMatchAt: row)
        let key = ObjectIdentifier(viewModel)
        scorers[key] = viewModel
        let token = Lifetime.Token()
        Lifetime(token) += viewModel.alertMessages.observeValues { [weak self] in self?.show(alert: $0) }
        viewModel.adjustGoalsAction.apply((scoringSide, delta)).startWithResult { [weak self] _ in
            _ = token
            self?.scorers[key] = nil
        }
    }
}
