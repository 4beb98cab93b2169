import Foundation
import GoalClient
import GoalModel
import GoalWire

/// The history pane under the list (`h`): the selected match's or player's history, newest first, one line a
/// revision (`r12 14:03 bob  home goals 2 → 3`), and a match's date (its creating changeset's time). It pages:
/// `]` shows the next older entries and, past the last one loaded, asks the server for the next page (the last
/// page's `next_before`); `[` goes back to newer ones. The footer says whether older entries are there, are
/// loading, or whether the start of the history (or of the server's log, when it was pruned) is reached.
///
/// Value type, owned by `LiveApp` on the main actor; the pages arrive from `GoalClient.history(_:)` and are added
/// with `append(_:)`.
struct HistoryPane {
    enum Content {
        case loading
        case loaded
        case failed(String)
    }

    /// The entity shown (the selection when it opened, or since it moved).
    let entity: EntityRef
    var content = Content.loading
    /// Every entry loaded so far, newest first (the pages in the order they came).
    private(set) var entries: [HistoryEntry] = []
    /// The last page's `next_before`: where the next older page starts; nil once the oldest page is loaded.
    private(set) var nextBefore: Revision?
    /// The last page's `pruned` and `retained_from` (they describe the end of the history).
    private(set) var pruned = false
    private(set) var retainedFrom: Revision?
    /// An older page was asked for and has not arrived yet.
    private(set) var loadingOlder = false
    /// Why the last request for an older page failed, until the next one.
    private(set) var olderFailure: String?
    /// The first entry shown (0: the newest).
    private(set) var offset = 0
    /// When the match was played (created); nil until known, or when that changeset was pruned.
    var played: Timestamp?

    init(entity: EntityRef) { self.entity = entity }

    /// Takes the next (older) page; a match's creation in it dates the match.
    mutating func append(_ page: HistoryPageMessage) {
        entries += page.entries
        nextBefore = page.nextBefore
        pruned = page.pruned
        retainedFrom = page.retainedFrom
        content = .loaded
        loadingOlder = false
        olderFailure = nil
        if played == nil, case .match = entity, let created = page.entries.first(where: { $0.change == .created }) {
            played = created.time
        }
    }

    /// The request for an older page failed: the footer says why until the next one.
    mutating func olderFailed(_ message: String) {
        loadingOlder = false
        olderFailure = message
    }

    /// Moves the shown entries a page of `rows` older (`older`) or newer.
    /// - Returns: The request for the next older page when the move passed the last entry loaded and the server
    ///   has more (the caller sends it and `append`s the answer); nil otherwise.
    mutating func page(older: Bool, rows: Int) -> HistoryRequest? {
        guard case .loaded = content else { return nil }
        if !older {
            offset = max(0, offset - rows)
            return nil
        }
        if offset + rows < entries.count { offset += rows }
        guard offset + rows >= entries.count, let before = nextBefore, !loadingOlder else { return nil }
        loadingOlder = true
        olderFailure = nil
        return HistoryRequest(entity: entity, before: before, limit: rows)
    }

    /// The older page arrived: shows it when the user has paged to the end of what was loaded.
    mutating func appendOlder(_ page: HistoryPageMessage, rows: Int) {
        let wasAtEnd = offset + rows >= entries.count
        append(page)
        if wasAtEnd, !page.entries.isEmpty { offset = min(offset + rows, max(entries.count - 1, 0)) }
    }

    /// The pane's lines, at most `height`: a title, then the entries shown and the footer.
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
            lines.append(ScreenLine("  " + RefusalText.naming(message, in: lookup.replica), .dim))
        case .loaded:
            if entries.isEmpty { lines.append(ScreenLine("  no history in the server's log", .dim)) }
            let rows = max(height - 2, 1)
            lines += entries.dropFirst(offset).prefix(rows).map { ScreenLine("  " + HistoryFormat.line($0, lookup)) }
            lines.append(ScreenLine("  " + footer(rows: rows, lookup: lookup), .dim))
        }
        return Array(lines.prefix(max(height, 1)))
    }

    /// Where the shown entries are: more older ones (`]`), loading, or the start of the history.
    private func footer(rows: Int, lookup: LeagueLookup) -> String {
        let shown = entries.isEmpty ? "" : "\(offset + 1)–\(min(offset + rows, entries.count)) of \(entries.count)"
        let newer = offset > 0 ? "  [ newer" : ""
        if let olderFailure {
            return "\(shown)  older entries failed: \(RefusalText.naming(olderFailure, in: lookup.replica))"
        }
        if loadingOlder { return "\(shown)  loading older entries…" }
        if offset + rows < entries.count || nextBefore != nil {
            return "\(shown)\(nextBefore != nil ? "+" : "")  ] older\(newer)"
        }
        if pruned {
            let start = retainedFrom.map { "the log starts at r\($0)" } ?? "the log is empty"
            return "\(shown)  older history pruned (\(start))\(newer)"
        }
        return "\(shown)  start of the history reached\(newer)"
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
