import Foundation
import GoalClient
import GoalModel
import GoalViewModels
import GoalWire

/// How goal-client shows players, matches and rankings: human tables and `--json` documents. Pure functions;
/// every name from the server is escaped here, before it can reach a terminal.
enum LeagueFormat {
    // MARK: Players

    /// The players table, or a sentence when there are none.
    static func playersText(_ lookup: LeagueLookup) -> [String] {
        guard !lookup.replica.players.isEmpty else {
            return ["no players yet; add one with goal-client players add NAME"]
        }
        return playersTable(lookup)
    }

    static func playersTable(_ lookup: LeagueLookup) -> [String] {
        var table = TextTable(header: ["ID", "NAME"])
        table.rows = lookup.sortedPlayers.map { [$0.id.shortID, TerminalText.escape($0.name)] }
        return table.lines
    }

    static func playerJSON(_ player: Player) -> JSONDocument {
        .object([
            ("id", .string(player.id.description)), ("name", .string(player.name)),
            ("revision", .uint(player.revision)),
        ])
    }

    static func playersJSON(_ lookup: LeagueLookup) -> JSONDocument {
        .array(lookup.sortedPlayers.map(playerJSON))
    }

    // MARK: Matches

    /// "Alice, Bob".
    static func side(_ ids: [PlayerID], _ lookup: LeagueLookup) -> String {
        ids.map(lookup.name).joined(separator: ", ")
    }

    /// The matches table, or a sentence when there are none.
    /// - Parameters:
    ///   - dates: When each match was created, as far as known (`MatchDates`, the match list's source in the UI).
    ///   - now: Today, for the date column (`HH:MM` today, else `YYYY-MM-DD`).
    static func matchesText(_ lookup: LeagueLookup, dates: MatchDates = MatchDates(), now: Date = Date()) -> [String] {
        guard !lookup.replica.matches.isEmpty else {
            return ["no matches yet; add one with goal-client matches add --home PLAYER --away PLAYER --score 0:0"]
        }
        return matchesTable(lookup, dates: dates, now: now)
    }

    /// How a match is named in a message: `3f2a9c1e (Alice, Bob vs Carol)` (`EntityNaming.matchLabel`).
    static func matchLabel(_ match: Match, _ lookup: LeagueLookup) -> String {
        TerminalText.escape(EntityNaming.matchLabel(match, in: lookup.replica))
    }

    /// `ID  PLAYED  HOME  SCORE  AWAY`, newest first; PLAYED is the date as the UI's match list shows it
    /// (`ChangesetLine.day`), `—` when the server's log no longer reaches back to the match's creation.
    static func matchesTable(_ lookup: LeagueLookup, dates: MatchDates, now: Date) -> [String] {
        var table = TextTable(header: ["ID", "PLAYED", "HOME", "SCORE", "AWAY"])
        table.rows = lookup.sortedMatches.map { match in
            [
                match.id.shortID, dates[match.id].map { ChangesetLine.day($0, now: now) } ?? "—",
                side(match.homePlayers, lookup), "\(match.homeGoals) : \(match.awayGoals)",
                side(match.awayPlayers, lookup),
            ]
        }
        return table.lines
    }

    /// One match for scripts; `created_at` is its creation time in ISO 8601 UTC, or null when unknown.
    static func matchJSON(_ match: Match, _ lookup: LeagueLookup, created: Timestamp?) -> JSONDocument {
        func names(_ ids: [PlayerID]) -> JSONDocument {
            .array(ids.map { id in lookup.replica.players[id].map { .string($0.name) } ?? .null })
        }
        return .object([
            ("id", .string(match.id.description)),
            ("home_players", .array(match.homePlayers.map { .string($0.description) })),
            ("away_players", .array(match.awayPlayers.map { .string($0.description) })),
            ("home_names", names(match.homePlayers)),
            ("away_names", names(match.awayPlayers)),
            ("home_goals", .int(match.homeGoals)),
            ("away_goals", .int(match.awayGoals)),
            ("created_at", created.map { .string($0.iso8601) } ?? .null),
            ("created_revision", .uint(match.created.revision)),
            ("revision", .uint(match.revision)),
        ])
    }

    static func matchesJSON(_ lookup: LeagueLookup, dates: MatchDates = MatchDates()) -> JSONDocument {
        .array(lookup.sortedMatches.map { matchJSON($0, lookup, created: dates[$0.id]) })
    }

    // MARK: Rankings

    /// The rankings table, or a sentence when there is no player to rank.
    static func rankingsText(_ lookup: LeagueLookup) -> [String] {
        guard !lookup.replica.players.isEmpty else {
            return ["no players yet, so no rankings; add one with goal-client players add NAME"]
        }
        return rankingsTable(lookup)
    }

    static func rankingsTable(_ lookup: LeagueLookup) -> [String] {
        var table = TextTable(header: ["#", "PLAYER", "RATING", "PLAYED", "WON", "DRAWN", "LOST"])
        table.rightAligned = [0, 2, 3, 4, 5, 6]
        table.rows = lookup.rankings.enumerated().map { index, entry in
            let rating = entry.rating
            return [
                "\(index + 1)", TerminalText.escape(entry.player.name), rating.formatted, "\(rating.played)",
                "\(rating.won)", "\(rating.drawn)", "\(rating.lost)",
            ]
        }
        return table.lines
    }

    static func rankingsJSON(_ lookup: LeagueLookup) -> JSONDocument {
        .array(
            lookup.rankings.enumerated().map { index, entry in
                let rating = entry.rating
                return .object([
                    ("rank", .int(index + 1)),
                    ("player_id", .string(entry.player.id.description)),
                    ("name", .string(entry.player.name)),
                    ("rating", .double(rating.value, decimals: 2)),
                    ("points", .int(rating.points)),
                    ("played", .int(rating.played)),
                    ("won", .int(rating.won)),
                    ("drawn", .int(rating.drawn)),
                    ("lost", .int(rating.lost)),
                ])
            }
        )
    }

    // MARK: Acks

    static func ackJSON(_ ack: MutationAck, extra: [(String, JSONDocument)] = []) -> JSONDocument {
        .object(
            [
                ("mutation_id", .string(ack.id.description)), ("revision", .uint(ack.revision)),
                ("noop", .bool(ack.noop)),
            ]
                + extra
        )
    }

    /// "committed at r42" / "no change (r42)".
    static func ackText(_ ack: MutationAck) -> String {
        ack.noop ? "no change (r\(ack.revision))" : "committed at r\(ack.revision)"
    }
}
