import Foundation
import GoalClient
import GoalModel
import GoalWire

/// The history pane under the list (`h`): the selected match's or player's history, newest first, one line a
/// revision (`r12 14:03 bob  home goals 2 → 3`), and a match's date (its creating changeset's time).
///
/// Value type, owned by `LiveApp` on the main actor; the pages arrive from `GoalClient.history(_:)` and replace it.
struct HistoryPane {
    enum Content {
        case loading
        case loaded(HistoryPageMessage)
        case failed(String)
    }

    /// The entity shown (the selection when it opened, or since it moved).
    let entity: EntityRef
    var content = Content.loading
    /// When the match was played (created); nil until known, or when that changeset was pruned.
    var played: Timestamp?

    init(entity: EntityRef) { self.entity = entity }

    /// The pane's lines, at most `height`: a title, then the entries and the footer.
    func lines(height: Int, lookup: LeagueLookup) -> [ScreenLine] {
        var title = ScreenLine(" History of \(name(lookup))", .bold)
        if case .match = entity {
            title.append("  played \(played.map { HistoryFormat.time($0, today: .distantPast) } ?? "—")", .dim)
        }
        title.append("  (h closes)", .dim)
        var lines = [title]
        switch content {
        case .loading:
            lines.append(ScreenLine("  loading…", .dim))
        case .failed(let message):
            lines.append(ScreenLine("  " + TerminalText.escape(message), .dim))
        case .loaded(let page):
            if page.entries.isEmpty { lines.append(ScreenLine("  no history in the server's log", .dim)) }
            lines += page.entries.map { ScreenLine("  " + HistoryFormat.line($0, lookup)) }
            if page.nextBefore != nil {
                lines.append(ScreenLine("  … older entries: goal-client history \(entity.id.prefix(8))", .dim))
            } else if page.pruned {
                let start = page.retainedFrom.map { "the log starts at r\($0)" } ?? "the log is empty"
                lines.append(ScreenLine("  older history pruned (\(start))", .dim))
            }
        }
        return Array(lines.prefix(max(height, 1)))
    }

    private func name(_ lookup: LeagueLookup) -> String {
        switch entity {
        case .match(let id):
            lookup.replica.matches[id].map { "match " + LeagueFormat.matchLabel($0, lookup) } ?? "match \(id.shortID)"
        case .player(let id):
            "player " + (lookup.replica.players[id].map { TerminalText.escape($0.name) } ?? id.shortID)
        }
    }
}
