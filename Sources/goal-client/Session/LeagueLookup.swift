import GoalClient
import GoalModel

/// Finds players and matches in a replica the way people name them on the command line: a player by name
/// (case-insensitive, by key), by full id or by its 8-hex short id; a match by full or short id.
///
/// Pure functions over a `ReplicaState` value; thread-safe.
struct LeagueLookup: Sendable {
    let replica: ReplicaState

    /// The player `text` names.
    /// - Throws: `CLIFailure.refused` when no player or several match.
    func player(_ text: String) throws(CLIFailure) -> Player {
        if let id = PlayerID(text), let player = replica.players[id] { return player }
        let key = PlayerName.key(for: text)
        if let byName = replica.players.values.first(where: { $0.nameKey == key }) { return byName }
        let lowered = text.lowercased()
        let byShort = replica.players.values.filter { $0.id.shortID == lowered }
        if byShort.count == 1 { return byShort[0] }
        if byShort.count > 1 {
            throw .refused("\"\(TerminalText.escape(text))\" matches \(byShort.count) players; use the full id")
        }
        throw .refused("no player \"\(TerminalText.escape(text))\"; goal-client players list shows them")
    }

    /// The match `text` (full or 8-hex short id) names.
    /// - Throws: `CLIFailure.refused` when no match or several match.
    func match(_ text: String) throws(CLIFailure) -> Match {
        if let id = MatchID(text), let match = replica.matches[id] { return match }
        let lowered = text.lowercased()
        let found = replica.matches.values.filter { $0.id.shortID == lowered || $0.id.description.hasPrefix(lowered) }
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            throw .refused("\"\(TerminalText.escape(text))\" matches \(found.count) matches; use more of the id")
        }
        throw .refused("no match \"\(TerminalText.escape(text))\"; goal-client matches list shows them")
    }

    /// Display name of a player id: the escaped name, or the short id when the player is unknown.
    func name(_ id: PlayerID) -> String {
        replica.players[id].map { TerminalText.escape($0.name) } ?? id.shortID
    }

    /// The players sorted by name key, then id.
    var sortedPlayers: [Player] {
        replica.players.values.sorted { ($0.nameKey, $0.id) < ($1.nameKey, $1.id) }
    }

    /// The matches, newest first (by creation revision, then id).
    var sortedMatches: [Match] {
        replica.matches.values.sorted {
            ($0.created.revision, $1.id) > ($1.created.revision, $0.id)
        }
    }

    /// Rankings: rating descending, ties by name key, then id.
    var rankings: [(player: Player, rating: Rating)] {
        replica.players.values.map { player in
            (player, replica.ratings[player.id] ?? Rating(playerID: player.id))
        }
        .sorted { lhs, rhs in
            if lhs.rating.value != rhs.rating.value { return lhs.rating.value > rhs.rating.value }
            return (lhs.player.nameKey, lhs.player.id) < (rhs.player.nameKey, rhs.player.id)
        }
    }
}
