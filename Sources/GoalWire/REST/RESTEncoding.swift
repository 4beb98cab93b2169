public import GoalModel

/// The JSON bodies of goald's Goalbase-compatible HTTP API (docs/HTTP.md), the shapes SwiftGoal decodes:
/// players `{id, name}`, matches `{id, home_goals, away_goals, home_players, away_players}` (Goalbase's key
/// order), rankings `{player, rating}` with `rating` a JSON number, and Goalbase's error body with goald's code.
///
/// Ids are goald's UUIDs as strings (SwiftGoal's identifiers are opaque strings). No `created_at`/`updated_at`:
/// goald keeps revisions, not times, and the app reads no timestamp. Stateless; any thread.
public enum RESTEncoding {
    /// A JSON array of players `{id, name}`, in the given order.
    public static func players(_ players: [Player]) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 * players.count + 2)
        writer.array(players) { writer, player in writer.restPlayer(id: player.id, name: player.name) }
        return writer.bytes
    }

    /// One player `{id, name}`.
    public static func player(_ player: Player) -> [UInt8] {
        var writer = JSONWriter(capacity: 96)
        writer.restPlayer(id: player.id, name: player.name)
        return writer.bytes
    }

    /// A JSON array of matches with their players' names looked up in `state`, in the given order.
    public static func matches(_ matches: [Match], in state: LeagueState) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 * matches.count + 2)
        writer.array(matches) { writer, match in writer.restMatch(match, in: state) }
        return writer.bytes
    }

    /// One match with its players' names looked up in `state`.
    public static func match(_ match: Match, in state: LeagueState) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.restMatch(match, in: state)
        return writer.bytes
    }

    /// `[{"player":{id,name},"rating":R}]` for every player, best first (`LeagueState.rankings()`).
    public static func rankings(_ state: LeagueState) -> [UInt8] {
        let ratings = state.rankings()
        var writer = JSONWriter(capacity: 96 * ratings.count + 2)
        writer.array(ratings) { writer, rating in
            writer.raw(#"{"player":"#)
            writer.restPlayer(id: rating.playerID, name: state.player(rating.playerID)?.name ?? "")
            writer.raw(#","rating":"#)
            writer.restNumber(rating.value)
            writer.byte(UInt8(ascii: "}"))
        }
        return writer.bytes
    }

    /// Goalbase's error body `{"response_type":"error","response":message}` with goald's stable `code` beside it
    /// (the rejection codes of docs/PROTOCOL.md §4, or the HTTP API's own: docs/HTTP.md).
    public static func error(code: RESTErrorCode, message: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 96 + message.utf8.count)
        writer.raw(#"{"response_type":"error","response":"#)
        writer.string(message)
        writer.raw(#","code":"#)
        writer.string(code.rawValue)
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }
}

extension JSONWriter {
    fileprivate mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        byte(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            write(&self, element)
        }
        byte(UInt8(ascii: "]"))
    }

    fileprivate mutating func restPlayer(id: PlayerID, name: String) {
        raw(#"{"id":"#)
        uuid(id.uuid)
        raw(#","name":"#)
        string(name)
        byte(UInt8(ascii: "}"))
    }

    fileprivate mutating func restPlayers(_ ids: [PlayerID], in state: LeagueState) {
        array(ids) { writer, id in writer.restPlayer(id: id, name: state.player(id)?.name ?? "") }
    }

    fileprivate mutating func restMatch(_ match: Match, in state: LeagueState) {
        raw(#"{"id":"#)
        uuid(match.id.uuid)
        raw(#","home_goals":"#)
        integer(match.homeGoals)
        raw(#","away_goals":"#)
        integer(match.awayGoals)
        raw(#","home_players":"#)
        restPlayers(match.homePlayers, in: state)
        raw(#","away_players":"#)
        restPlayers(match.awayPlayers, in: state)
        byte(UInt8(ascii: "}"))
    }

    /// A rating as Goalbase wrote it: `Float#round(3)` (half away from zero) rendered as Ruby's `to_json` does,
    /// the shortest decimals with at least one (`6.667`, `3.333`, `0.0`, `10.0`). A rating is 0…10.
    fileprivate mutating func restNumber(_ value: Double) {
        let thousandths = Int64((value * 1000).rounded(.toNearestOrAwayFromZero))
        integer(thousandths / 1000)
        byte(UInt8(ascii: "."))
        var fraction = thousandths % 1000
        var digits = 3
        while digits > 1, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        for _ in text.count..<digits { byte(UInt8(ascii: "0")) }
        bytes.append(contentsOf: text.utf8)
    }
}
