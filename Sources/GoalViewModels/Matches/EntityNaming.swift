public import GoalClient
public import GoalModel

/// How a message names players and matches for people: a player by its quoted name (`"Ada"`), a match by its short
/// id and its players (`3f2a9c1e (Ada vs Bea)`, the label goal-client's answers, history and UI use). The server's
/// refusals name entities by id (`player 52217072 cannot play on both sides`, `match <uuid> does not exist`); this
/// rewrites every id the replica knows, full or short, so no message reaches a person as a UUID.
///
/// Pure functions over a `ReplicaState` value; thread-safe. Names are not escaped here: the terminal layer escapes
/// the whole message.
public enum EntityNaming {
    /// A match as messages name it: `3f2a9c1e (Ada, Bo vs Cy)` (a player the replica lacks shows its short id).
    /// - Parameters:
    ///   - id: The match.
    ///   - homePlayers: Its home side.
    ///   - awayPlayers: Its away side.
    ///   - replica: Where the players' names come from.
    /// - Returns: The label.
    public static func matchLabel(
        _ id: MatchID,
        homePlayers: [PlayerID],
        awayPlayers: [PlayerID],
        in replica: ReplicaState
    ) -> String {
        func side(_ ids: [PlayerID]) -> String {
            ids.map { replica.players[$0]?.name ?? $0.shortID }.joined(separator: ", ")
        }
        return "\(id.shortID) (\(side(homePlayers)) vs \(side(awayPlayers)))"
    }

    /// `match` as messages name it (`matchLabel(_:homePlayers:awayPlayers:in:)`).
    public static func matchLabel(_ match: Match, in replica: ReplicaState) -> String {
        matchLabel(match.id, homePlayers: match.homePlayers, awayPlayers: match.awayPlayers, in: replica)
    }

    /// `message` with every id of a player or match the replica knows written as people name it: a full id
    /// anywhere, and a short id (8 hex digits) after "player " or "match ", the form the server's rules use.
    /// Ids the replica does not know (a deleted entity) stay as they are.
    /// - Parameters:
    ///   - message: A server's refusal or any other message.
    ///   - replica: Where names come from.
    /// - Returns: The message with names for ids.
    public static func naming(_ message: String, in replica: ReplicaState) -> String {
        // One pass, so a label just written (`match 3f2a9c1e (Ada vs Bea)`) is never named again.
        let id = /\b(?:(player|match) )?([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{8})(?![0-9a-f-])/
        return message.replacing(id) { found -> String in
            let (whole, kind, text) = found.output
            let prefix = kind.map { "\($0) " } ?? ""
            if text.count > 8 {
                if let player = PlayerID(String(text)).flatMap({ replica.players[$0] }) {
                    return prefix + quoted(player)
                }
                if let match = MatchID(String(text)).flatMap({ replica.matches[$0] }) {
                    return prefix + matchLabel(match, in: replica)
                }
            } else if kind == "player" {
                let players = replica.players.values.filter { $0.id.shortID == text }
                if players.count == 1 { return prefix + quoted(players[0]) }
            } else if kind == "match" {
                let matches = replica.matches.values.filter { $0.id.shortID == text }
                if matches.count == 1 { return prefix + matchLabel(matches[0], in: replica) }
            }
            return String(whole)
        }
    }

    /// `"Ada"`.
    private static func quoted(_ player: Player) -> String { "\"\(player.name)\"" }
}
