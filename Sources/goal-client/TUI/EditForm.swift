import GoalModel
import GoalReactive
import GoalViewModels

/// The new/edit match form of the UI: binds an `EditMatchViewModel` (fields: home players, away players, home
/// goals, away goals) and, while one is open, a player picker (`ManagePlayersViewModel`). No domain logic: it
/// only forwards keys to the view models' inputs and reads their outputs.
///
/// Threading: `@MainActor`. Lifetime: owned by `LiveApp` while the form is open.
@MainActor
final class EditForm {
    enum Field: Int, CaseIterable {
        case homePlayers, awayPlayers, homeGoals, awayGoals
    }

    /// An open player picker (its cursor is the view model's, which follows its player).
    struct Picker {
        let side: Side
        let viewModel: ManagePlayersViewModel
        /// True while typing a new player's name (`a`): the player is created through the picker's view model
        /// and chosen on this side once the server commits it ("sharing state between views").
        var isAddingPlayer = false
    }

    let viewModel: EditMatchViewModel
    var field: Field = .homePlayers
    var picker: Picker?
    /// Called when the save succeeded (the form closes).
    var onSaved: () -> Void = {}
    /// Shows a message in the banner (a picker's refusals).
    var onAlert: (String) -> Void = { _ in }
    /// Ends the form's observations when the form goes away.
    let lifetimeToken = Lifetime.Token()

    init(viewModel: EditMatchViewModel) {
        self.viewModel = viewModel
    }

    /// Handles one key. - Returns: false when the form should close (Escape outside a picker).
    func handle(_ key: Key) -> Bool {
        if picker != nil { return handlePicker(key) }
        if viewModel.conflict.value != nil { return handleConflict(key) }
        switch key {
        case .escape: return false
        case .up: field = Field(rawValue: max(field.rawValue - 1, 0)) ?? field
        case .down, .tab: field = Field(rawValue: min(field.rawValue + 1, Field.allCases.count - 1)) ?? field
        case .backTab: field = Field(rawValue: max(field.rawValue - 1, 0)) ?? field
        case .enter, .character(" "):
            switch field {
            case .homePlayers: openPicker(.home)
            case .awayPlayers: openPicker(.away)
            case .homeGoals, .awayGoals: save()
            }
        case .character("+"), .right: adjust(1)
        case .character("-"), .left: adjust(-1)
        case .character("s"): save()
        default: break
        }
        return true
    }

    /// A conflicted save: t takes theirs (reload), k keeps mine (save again on the new base), escape cancels.
    private func handleConflict(_ key: Key) -> Bool {
        switch key {
        case .character("t"): viewModel.takeTheirs()
        case .character("k"): viewModel.keepMine()
        case .escape, .character("q"): return false
        default: break
        }
        return true
    }

    private func adjust(_ delta: Int) {
        switch field {
        case .homeGoals: viewModel.homeGoals.value = max(0, viewModel.homeGoals.value + delta)
        case .awayGoals: viewModel.awayGoals.value = max(0, viewModel.awayGoals.value + delta)
        case .homePlayers, .awayPlayers: break
        }
    }

    private func openPicker(_ side: Side) {
        let picker =
            side == .home ? viewModel.manageHomePlayersViewModel() : viewModel.manageAwayPlayersViewModel()
        picker.active.value = true
        let onAlert = self.onAlert
        Lifetime(lifetimeToken) += picker.alertMessages.observeValues { onAlert($0) }
        self.picker = Picker(side: side, viewModel: picker)
    }

    private func handlePicker(_ key: Key) -> Bool {
        guard let picker else { return true }
        if picker.isAddingPlayer { return handleNewPlayer(key, picker.viewModel) }
        switch key {
        case .character("a"):
            picker.viewModel.playerName.value = ""
            self.picker?.isAddingPlayer = true
        case .up: picker.viewModel.moveCursor(by: -1)
        case .down: picker.viewModel.moveCursor(by: 1)
        case .character(" "), .character("x"):
            if let id = picker.viewModel.playerAtCursor { picker.viewModel.togglePlayer(id) }
        case .enter, .escape, .tab:
            picker.viewModel.active.value = false
            self.picker = nil
        default: break
        }
        return true
    }

    private func handleNewPlayer(_ key: Key, _ viewModel: ManagePlayersViewModel) -> Bool {
        switch key {
        case .escape:
            picker?.isAddingPlayer = false
        case .enter:
            viewModel.saveAction.apply(()).startWithResult { [weak self] result in
                if case .success = result { self?.picker?.isAddingPlayer = false }
            }
        case .backspace:
            viewModel.playerName.modify { if !$0.isEmpty { $0.removeLast() } }
        case .character(let character):
            viewModel.playerName.modify { $0.append(character) }
        default:
            break
        }
        return true
    }

    private func save() {
        let onSaved = self.onSaved
        viewModel.saveAction.apply(()).startWithResult { result in
            if case .success = result { onSaved() }
        }
    }

    /// The form's lines (names escaped here).
    func lines(height: Int) -> [ScreenLine] {
        var lines = [ScreenLine(" \(viewModel.title)", .bold), ScreenLine()]
        let values: [(Field, String, String)] = [
            (.homePlayers, "Home players", viewModel.homePlayersString.value),
            (.awayPlayers, "Away players", viewModel.awayPlayersString.value),
            (.homeGoals, "Home goals", viewModel.formattedHomeGoals.value),
            (.awayGoals, "Away goals", viewModel.formattedAwayGoals.value),
        ]
        for (field, label, value) in values {
            var line = ScreenLine("  " + TerminalText.fit(label, 14))
            line.append(TerminalText.escape(value), field == self.field && picker == nil ? .selected : .plain)
            lines.append(line)
        }
        lines.append(ScreenLine())
        if let warning = viewModel.editingWarning.value {
            lines.append(ScreenLine(" \(PresenceText.editingMarker) \(TerminalText.escape(warning))", .bold))
        }
        if let conflict = viewModel.conflict.value {
            lines.append(ScreenLine(" Someone else changed this match while you were editing:", .bold))
            lines.append(
                ScreenLine("  " + TerminalText.fit("FIELD", 14) + TerminalText.fit("MINE", 24) + "THEIRS", .bold)
            )
            for field in conflict.fields {
                lines.append(
                    ScreenLine(
                        "  " + TerminalText.fit(field.label, 14) + TerminalText.fit(TerminalText.escape(field.mine), 24)
                            + TerminalText.escape(field.theirs)
                    )
                )
            }
            lines.append(ScreenLine("  t take theirs (reload)   k keep mine (save again with s)   esc cancel", .bold))
            return lines
        }
        let valid = viewModel.inputIsValid.value
        let changes = viewModel.hasChanges.value
        lines.append(
            ScreenLine(
                valid ? (changes ? "  ready to save (s)" : "  nothing changed yet") : "  choose players for both sides",
                valid ? .plain : .dim
            )
        )
        if let picker {
            lines.append(ScreenLine())
            lines.append(
                ScreenLine(" Pick \(picker.side.rawValue) players (space: toggle, a: add a player, enter: done)", .bold)
            )
            if picker.isAddingPlayer {
                var line = ScreenLine("  New player: ", .bold)
                line.append(TerminalText.escape(picker.viewModel.playerName.value) + "_")
                if let problem = picker.viewModel.nameProblem.value, !picker.viewModel.playerName.value.isEmpty {
                    line.append("  (\(TerminalText.escape(problem)))", .dim)
                }
                lines.append(line)
            }
            let rows = picker.viewModel.rows
            let cursor = picker.viewModel.cursor.value.row ?? 0
            let room = max(height - lines.count, 1)
            let start = max(0, min(cursor - room / 2, rows.count - room))
            for index in rows.indices.dropFirst(start).prefix(room) {
                let mark =
                    !picker.viewModel.canSelectPlayer(at: index)
                    ? "[-]" : picker.viewModel.isPlayerSelected(at: index) ? "[x]" : "[ ]"
                let line = ScreenLine("  \(mark) " + TerminalText.escape(rows[index].name))
                lines.append(index == cursor ? line.styled(.selected) : line)
            }
        }
        return lines
    }
}
