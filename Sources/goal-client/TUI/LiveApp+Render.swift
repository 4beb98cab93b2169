import Foundation
import GoalModel
import GoalReactive
import GoalViewModels

/// Drawing: the frame is a function of the view models' outputs and the UI state; `ScreenRenderer` writes only
/// the lines that changed. Everything from the server is escaped here.
extension LiveApp {
    static let keyHints = "n new  e edit  d del  +/- goal  ←/→ side  p player  r refresh  ? keys  q quit"

    func frame(columns: Int, rows: Int) -> [ScreenLine] {
        var lines: [ScreenLine] = [tabBar()]
        if let banner, banner.until > Date() {
            lines.append(ScreenLine(" " + banner.text, .banner).styled(.banner))
        } else {
            banner = nil
            lines.append(ScreenLine())
        }
        let bodyHeight = max(rows - 4, 1)
        var body: [ScreenLine]
        switch mode {
        case .help: body = helpLines()
        case .edit(let form): body = form.lines(height: bodyHeight)
        case .browse, .confirmDelete, .newPlayer: body = listLines(height: bodyHeight)
        }
        body = Array(body.prefix(bodyHeight))
        while body.count < bodyHeight { body.append(ScreenLine()) }
        lines += body
        lines.append(promptLine())
        lines.append(statusLine())
        return lines
    }

    private func tabBar() -> ScreenLine {
        var line = ScreenLine(" goal ", .bold)
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
        case .newPlayer:
            var line = ScreenLine(" New player: ", .bold)
            line.append(TerminalText.escape(players.playerName.value) + "_")
            if let problem = players.nameProblem.value, !players.playerName.value.isEmpty {
                line.append("  (\(TerminalText.escape(problem)))", .dim)
            }
            return line
        case .edit:
            return ScreenLine(" ↑/↓ field  enter pick players  +/- goals  s save  esc cancel", .dim)
        default:
            return ScreenLine(" " + Self.keyHints, .dim)
        }
    }

    private func statusLine() -> ScreenLine {
        var line = ScreenLine(" \(connection.statusText.value) ", .reverse)
        line.append("  \(TerminalText.escape(connection.server))  \(connection.revisionText.value)")
        line.append("  rtt \(connection.roundTripText.value)")
        let pending = connection.pendingCount.value
        if pending > 0 { line.append("  \(pending) pending", .pending) }
        return line
    }

    private func helpLines() -> [ScreenLine] {
        [
            ScreenLine(" Keys", .bold),
            ScreenLine("  tab / 1 2 3     switch tabs (Matches · Rankings · Players)"),
            ScreenLine("  ↑ ↓             select a row"),
            ScreenLine("  n               new match (pick players, set the score, s saves)"),
            ScreenLine("  e               edit the selected match"),
            ScreenLine("  d               delete the selected match (asks first)"),
            ScreenLine("  + -             add or take a goal on the selected match"),
            ScreenLine("  ← →             choose the side + and - score (home / away)"),
            ScreenLine("  p               add a player"),
            ScreenLine("  r               refresh"),
            ScreenLine("  q  Ctrl-C       quit"),
            ScreenLine(),
            ScreenLine("  * marks edits not yet confirmed by the server; highlighted rows were just"),
            ScreenLine("    changed by someone else.  Any key closes this help."),
        ]
    }

    private func listLines(height: Int) -> [ScreenLine] {
        let now = Date()
        func isChanged(_ id: String) -> Bool { (changed[id] ?? .distantPast) > now }
        var header: ScreenLine
        var rows: [(ScreenLine, String)] = []
        switch tab {
        case .matches:
            let sideMark = scoringSide == .home ? "[home]" : "[away]"
            header = ScreenLine(
                " " + TerminalText.fit("HOME", 30) + "  SCORE   " + TerminalText.fit("AWAY", 30) + " ±" + sideMark,
                .bold
            )
            rows = matches.rows.map { row in
                var line = ScreenLine(row.isPending ? "*" : " ", .pending)
                line.append(TerminalText.fit(TerminalText.escape(row.homePlayers), 30) + "  ")
                line.append(TerminalText.fit(row.result, 8))
                line.append(TerminalText.escape(row.awayPlayers))
                return (line, row.id.description)
            }
        case .rankings:
            header = ScreenLine("  #   " + TerminalText.fit("PLAYER", 40) + "  RATING", .bold)
            rows = rankings.rows.enumerated().map { index, row in
                let rank = String(repeating: " ", count: max(0, 3 - String(index + 1).count)) + String(index + 1)
                let line = ScreenLine(
                    " \(rank)  " + TerminalText.fit(TerminalText.escape(row.name), 40) + "  "
                        + String(repeating: " ", count: max(0, 6 - row.rating.count)) + row.rating
                )
                return (line, row.id.description)
            }
        case .players:
            header = ScreenLine(" PLAYER", .bold)
            rows = players.rows.map { row in
                var line = ScreenLine(row.isPending ? "*" : " ", .pending)
                line.append(TerminalText.escape(row.name))
                return (line, row.id.description)
            }
        }
        var lines = [header]
        if rows.isEmpty {
            let hint =
                switch tab {
                case .matches: "  No matches yet: press n to add one."
                case .rankings: "  No players yet."
                case .players: "  No players yet: press p to add one."
                }
            lines.append(ScreenLine(hint, .dim))
            return lines
        }
        let selected = min(selectedRow() ?? 0, rows.count - 1)
        let room = max(height - 1, 1)
        let start = max(0, min(selected - room + 1, rows.count - room))
        for index in rows.indices.dropFirst(max(start, 0)).prefix(room) {
            let (line, id) = rows[index]
            if index == selected {
                lines.append(line.styled(.selected))
            } else if isChanged(id) {
                lines.append(line.styled(.changed))
            } else {
                lines.append(line)
            }
        }
        return lines
    }
}
