import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalViewModels

/// Drawing: the frame is a function of the view models' outputs and the UI state; `ScreenRenderer` writes only
/// the lines that changed. Everything from the server is escaped here.
extension LiveApp {
    /// The key line under each tab's list: the keys that act on that tab (`?` lists them all). Each fits in 80
    /// columns.
    static func keyHints(_ tab: Tab) -> String {
        switch tab {
        case .matches: "enter edit  n new  d del  +/- ←→ score  h history  r refresh  ? keys  q quit"
        case .rankings: "enter player  n new match  p new player  h history  r refresh  ? keys  q quit"
        case .players: "enter/e rename  p new  d del  h history  r refresh  ? keys  q quit"
        }
    }
    /// Lines that are not the list: tab bar, banner, prompt, status.
    static let chromeRows = 4

    func frame(columns: Int, rows: Int) -> [ScreenLine] {
        var lines: [ScreenLine] = [tabBar()]
        if let banner, banner.until > Date() {
            lines.append(ScreenLine(" " + banner.text, .banner).styled(.banner))
        } else {
            banner = nil
            lines.append(ScreenLine())
        }
        let bodyHeight = max(rows - Self.chromeRows, 1)
        var body: [ScreenLine]
        switch mode {
        case .help: body = helpLines()
        case .edit(let form): body = form.lines(height: bodyHeight)
        case .leagues: body = leaguePicker?.lines(height: bodyHeight) ?? []
        case .browse, .confirmDelete, .newPlayer, .renamePlayer, .confirmDeletePlayer:
            if let historyPane {
                let paneHeight = min(Self.historyPaneHeight, bodyHeight / 2)
                body = Array(
                    listLines(height: bodyHeight - paneHeight, columns: columns).prefix(bodyHeight - paneHeight)
                )
                while body.count < bodyHeight - paneHeight { body.append(ScreenLine()) }
                body += historyPane.lines(height: paneHeight, lookup: LeagueLookup(replica: store.client.replica.value))
            } else {
                body = listLines(height: bodyHeight, columns: columns)
            }
        }
        body = Array(body.prefix(bodyHeight))
        while body.count < bodyHeight { body.append(ScreenLine()) }
        lines += body
        lines.append(promptLine())
        lines.append(statusLine(columns: columns))
        return lines
    }

    private func tabBar() -> ScreenLine {
        var line = ScreenLine(" goal ", .bold)
        if let league = leagueSwitching?.current, !league.isDefault {
            line.append("\(league.rawValue) ", .bold)
        }
        for candidate in Tab.allCases {
            line.append(" \(candidate.title) ", candidate == tab ? .reverse : .plain)
            if candidate != Tab.allCases.last { line.append("·") }
        }
        return line
    }

    private func promptLine() -> ScreenLine {
        switch mode {
        case .confirmDelete(let shown):
            guard let match = matches.row(for: shown.id) else {
                return ScreenLine(" That match was deleted meanwhile. Any key continues.", .bold)
            }
            return ScreenLine(
                " Delete \(TerminalText.escape(match.homePlayers)) \(match.result) \(TerminalText.escape(match.awayPlayers))? y/n",
                .bold
            )
        case .renamePlayer(let player, let name):
            let old = players.rows.first { $0.id == player.id }?.name ?? player.id.shortID
            var line = ScreenLine(" Rename \(TerminalText.escape(old)) to: ", .bold)
            line.append(TerminalText.escape(name) + "_")
            line.append("  (enter renames, esc cancels)", .dim)
            return line
        case .confirmDeletePlayer(let player):
            guard let row = players.rows.first(where: { $0.id == player.id }) else {
                return ScreenLine(" That player was deleted meanwhile. Any key continues.", .bold)
            }
            return ScreenLine(" Delete player \(TerminalText.escape(row.name))? y/n", .bold)
        case .newPlayer:
            var line = ScreenLine(" New player: ", .bold)
            line.append(TerminalText.escape(players.playerName.value) + "_")
            if let problem = players.nameProblem.value, !players.playerName.value.isEmpty {
                line.append("  (\(TerminalText.escape(problem)))", .dim)
            }
            return line
        case .edit(let form) where form.viewModel.conflict.value != nil:
            return ScreenLine(" t take theirs  k keep mine  esc cancel", .dim)
        case .edit:
            return ScreenLine(" ↑/↓ field  enter pick players  +/- goals  s save  esc cancel", .dim)
        case .leagues:
            return ScreenLine(" ↑/↓ choose  enter switch to that league  esc cancel", .dim)
        default:
            return ScreenLine(" " + Self.keyHints(tab), .dim)
        }
    }

    /// The connection at a glance: a coloured marker whose text reads without colour, the status words (a
    /// ticking countdown while reconnecting), revision (before the server, which a narrow terminal cuts), server, the round-trip time once, pending edits.
    private func statusLine(columns: Int) -> ScreenLine {
        let style: Style =
            switch connection.phase.value {
            case .live: .live
            case .connecting: .connecting
            case .reconnecting: .reconnecting
            case .stopped: .stopped
            }
        var line = ScreenLine(" \(connection.marker.value) ", style)
        line.append(" \(TerminalText.escape(connection.summary.value))", .bold)
        if connection.isStale.value { line.append("  c: reconnect now", .dim) }
        let pending = connection.pendingCount.value
        if pending > 0 { line.append("  \(pending) pending", .pending) }
        line.append("  \(connection.revisionText.value)  \(TerminalText.escape(connection.server))")
        if connection.phase.value == .live { line.append("  rtt \(connection.roundTripText.value)") }
        let used = line.segments.reduce(0) { $0 + TerminalText.width($1.text) }
        if let online = PresenceText.online(store.presence.value, columns: columns - used - 2) {
            line.append("  " + online)
        }
        return line
    }

    /// Every key, in at most 20 lines (a 24-row terminal's body), so "Any key closes this help." stays on screen.
    private func helpLines() -> [ScreenLine] {
        [
            ScreenLine(" Keys", .bold),
            ScreenLine("  tab / 1 2 3     switch tabs (Matches · Rankings · Players)"),
            ScreenLine("  ↑ ↓  k j        select a row (PgUp PgDn a page; Home End, g G first or last)"),
            ScreenLine("  enter           open: edit a match · a ranking's player · rename a player"),
            ScreenLine("  n               new match (pick players, set the score, s saves)"),
            ScreenLine("  e               edit the selected match; on Players, rename the player"),
            ScreenLine("  d               delete the selected match, or (admin) player; asks first"),
            ScreenLine("  + -   ← →       a goal more or less on the selected match; the side to score"),
            ScreenLine("  p               add a player"),
            ScreenLine("  h  ] [          history of the selected row (its date); ] older, [ newer"),
            ScreenLine("  r               refresh the list"),
            ScreenLine("  c               reconnect now while reconnecting or stopped (no countdown)"),
            ScreenLine("  l               switch league (the leagues your token may see; each its own state)"),
            ScreenLine("  Ctrl-Z          suspend (fg resumes)     q  Ctrl-C   quit"),
            ScreenLine(),
            ScreenLine("  * marks edits not yet confirmed by the server (a pending goal shows the score"),
            ScreenLine("    it will have); highlighted rows were just changed by someone else; dim rows"),
            ScreenLine("    may be out of date: [LIVE] [CONNECTING] [RECONNECTING] [STOPPED] say why."),
            ScreenLine(
                "  \(PresenceText.editingMarker) marks a match someone else is editing; the status line says who is online."
            ),
            ScreenLine("    Any key closes this help."),
        ]
    }
}
