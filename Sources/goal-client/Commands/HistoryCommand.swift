import ArgumentParser
import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalWire

/// `goal-client history <match|player>`: who changed a match or a player, newest first, one line per revision
/// (`r12 14:03 bob  home goals 2 → 3`), paged with `--before`; as far back as the server's log reaches.
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show who changed a match or a player, newest first: goal-client history 3f2c9a1e | Ada",
        discussion: """
            The argument is a match's short id (or more of its id), or a player's name, short id or id; a full id \
            of a deleted match or player works too. History reaches back as far as the server keeps its log; the \
            last line says when older history was pruned, or how to read the next page (--before).
            """
    )
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "A match (short id) or a player (name, short id or id).") var entity: String
    @Option(help: ArgumentHelp("Entries per page, 1…100.", valueName: "n")) var limit: Int = HistoryRequest.defaultLimit
    @Option(help: ArgumentHelp("Only revisions below this one (the next page).", valueName: "revision"))
    var before: UInt64?

    func validate() throws {
        guard (1...HistoryRequest.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be 1…\(HistoryRequest.maximumLimit)")
        }
        if let before, before < 1 { throw ValidationError("--before must be a revision of 1 or more") }
    }

    func run() async throws {
        try await CommandSession.run(connection, offline: .refused) { session, lookup async throws(CLIFailure) in
            let (ref, page) = try await fetch(session, lookup)
            if output.json {
                Console.out(HistoryFormat.json(page, entity: ref).text)
                return
            }
            if case .match(let id) = ref {
                let label = lookup.replica.matches[id].map { LeagueFormat.matchLabel($0, lookup) } ?? id.shortID
                let played = await playedTime(of: id, page: page, session: session, lookup: lookup)
                Console.out(
                    "match \(label), played \(played.map { HistoryFormat.time($0, today: .distantPast) } ?? "—")"
                )
            } else if case .player(let id) = ref {
                Console.out("player \(lookup.replica.players[id].map { TerminalText.escape($0.name) } ?? id.shortID)")
            }
            page.entries.map { HistoryFormat.line($0, lookup) }.forEach(Console.out)
            HistoryFormat.footer(page, argument: entity).forEach(Console.out)
        }
    }

    /// A match's date: the time of the changeset that created it, from this page or one more request for the
    /// revision that created it; nil when that changeset was pruned (or the match is gone and not on this page).
    private func playedTime(
        of id: MatchID,
        page: HistoryPageMessage,
        session: LeagueSession,
        lookup: LeagueLookup
    ) async -> Timestamp? {
        if let created = page.entries.first(where: { $0.change == .created }) { return created.time }
        guard let match = lookup.replica.matches[id] else { return nil }
        let request = HistoryRequest(entity: .match(id), before: match.created.revision + 1, limit: 1)
        let older = try? await session.history(request)  // no answer: the date shows as unknown ("—")
        return older?.entries.first.flatMap { $0.change == .created ? $0.time : nil }
    }

    /// Resolves the argument (a match first, then a player; a full id not in the replica is asked as a match, then
    /// as a player) and reads the page.
    private func fetch(
        _ session: LeagueSession,
        _ lookup: LeagueLookup
    ) async throws(CLIFailure) -> (EntityRef, HistoryPageMessage) {
        var candidates: [EntityRef] = []
        if let match = try? lookup.match(entity) {  // not a match: try a player next
            candidates = [.match(match.id)]
        } else if let player = try? lookup.player(entity) {  // not a player either: maybe a deleted one, below
            candidates = [.player(player.id)]
        } else if let match = MatchID(entity), let player = PlayerID(entity) {
            candidates = [.match(match), .player(player)]
        } else {
            throw .refused(
                "no match or player \"\(TerminalText.escape(entity))\"; goal-client matches / players list them"
            )
        }
        var lastFailure: CLIFailure?
        for candidate in candidates {
            do throws(CLIFailure) {
                return (
                    candidate,
                    try await session.history(HistoryRequest(entity: candidate, before: before, limit: limit))
                )
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure ?? .refused("no history")
    }
}
