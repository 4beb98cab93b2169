import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalViewModels

/// Drawing the list of the current tab: columns sized to the terminal's width, the selection (highlighted too
/// when someone else just changed it), rows dimmed while the data may be stale, and the scroll position. Match
/// rows start with the match's date (`HH:mm` today, else `yyyy-MM-dd`; blank until known), asked for the visible
/// rows only (`MatchesViewModel.showing`).
extension LiveApp {
    func listLines(height: Int, columns: Int) -> [ScreenLine] {
        let (title, rowCount, rowLine) = tableRows(columns: columns)
        guard rowCount > 0 else {
            let hint =
                switch tab {
                case .matches: "  No matches yet: press n to add one."
                case .rankings: "  No players yet."
                case .players: "  No players yet: press p to add one."
                }
            return [title, ScreenLine(hint, .dim)]
        }
        let now = Date()
        let stale = connection.isStale.value
        let selected = min(selectedRow() ?? 0, rowCount - 1)
        let room = max(height - 1, 1)
        let start = max(0, min(selected - room + 1, rowCount - room))
        if tab == .matches {
            matches.showing(matches.rows.dropFirst(start).prefix(room).map(\.id))  // their dates, if unknown
        }
        var lines = [Self.withPosition(title, "\(selected + 1)/\(rowCount)", columns: columns)]
        for index in (0..<rowCount).dropFirst(start).prefix(room) {
            let (line, id) = rowLine(index)
            let isChanged = (changed[id] ?? .distantPast) > now
            switch (index == selected, isChanged) {
            case (true, true): lines.append(line.styled(.selectedChanged))
            case (true, false): lines.append(line.styled(.selected))
            case (false, true): lines.append(line.styled(.changed))
            case (false, false): lines.append(stale ? line.styled(.stale) : line)
            }
        }
        return lines
    }

    /// The header, the number of rows and a row's line with its entity's id, for the current tab: only the rows
    /// drawn are formatted (the match list may hold 10,000).
    private func tableRows(columns: Int) -> (ScreenLine, Int, (Int) -> (ScreenLine, String)) {
        switch tab {
        case .matches:
            // " " + date + "  " + marker + home + "  " + score + away: 80 columns give each side 27.
            let date = Self.matchDateWidth
            let side = (max(columns, 40) - 1 - date - 2 - 1 - 2 - 9) / 2
            let sideMark = scoringSide == .home ? "[home]" : "[away]"
            let header = ScreenLine(
                " " + TerminalText.fit("PLAYED", date) + "   " + TerminalText.fit("HOME", side) + "  SCORE    "
                    + TerminalText.fit("AWAY", side - 14) + " ±" + sideMark,
                .bold
            )
            let edited = PresenceText.editedByOthers(store.presence.value, except: store.clientInstance)
            let now = Date()
            let rows = matches.rows
            return (
                header,
                rows.count,
                { index in
                    let row = rows[index]
                    let marker = row.isPending ? "*" : edited.contains(row.id) ? PresenceText.editingMarker : " "
                    let played = row.created.map { ChangesetLine.day($0, now: now) } ?? ""
                    var line = ScreenLine(" " + TerminalText.fit(played, date) + "  ")
                    line.append(marker, .pending)
                    line.append(TerminalText.fit(TerminalText.escape(row.homePlayers), side) + "  ")
                    line.append(TerminalText.fit(row.result, 9))
                    line.append(TerminalText.fit(TerminalText.escape(row.awayPlayers), side))
                    return (line, row.id.description)
                }
            )
        case .rankings:
            // "  #  " + name + "  RATING  PLAYED  WON  DRAWN  LOST"
            let name = max(columns - 6 - 38, 10)
            let header = ScreenLine(
                "  #   " + TerminalText.fit("PLAYER", name) + "  RATING  PLAYED   WON  DRAWN  LOST",
                .bold
            )
            let rows = rankings.rows
            return (
                header,
                rows.count,
                { index in
                    let row = rows[index]
                    let line = ScreenLine(
                        " " + Self.right("\(index + 1)", 3) + "  "
                            + TerminalText.fit(TerminalText.escape(row.name), name)
                            + "  " + Self.right(row.rating, 6) + "  " + Self.right("\(row.played)", 6) + "  "
                            + Self.right("\(row.won)", 4) + "  " + Self.right("\(row.drawn)", 5) + "  "
                            + Self.right("\(row.lost)", 4)
                    )
                    return (line, row.id.description)
                }
            )
        case .players:
            let rows = players.rows
            return (
                ScreenLine(" PLAYER", .bold),
                rows.count,
                { index in
                    let row = rows[index]
                    var line = ScreenLine(row.isPending ? "*" : " ", .pending)
                    line.append(TerminalText.fit(TerminalText.escape(row.name), max(columns - 2, 1)))
                    return (line, row.id.description)
                }
            )
        }
    }

    /// The match list's date column: `yyyy-MM-dd`, or `HH:mm` for today (`ChangesetLine.day`).
    static let matchDateWidth = 10

    /// `text` right-aligned in `width` columns.
    static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// The header with the scroll position ("3/12") at the right edge (the header is cut to make room).
    static func withPosition(_ header: ScreenLine, _ position: String, columns: Int) -> ScreenLine {
        let text = header.segments.map(\.text).joined()
        let room = max(columns - position.count - 2, 1)
        let cut = TerminalText.fit(text, room)
        var line = ScreenLine(cut, header.segments.first?.style ?? .bold)
        line.append(String(repeating: " ", count: max(1, columns - TerminalText.width(cut) - position.count - 1)))
        line.append(position, .dim)
        return line
    }
}
