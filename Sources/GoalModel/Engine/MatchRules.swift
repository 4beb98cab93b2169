/// The domain rules of a match's sides and goals (docs/RULES.md "Domain rules"), as pure checks. The conflict
/// engine runs them on every created match and on every merged update; clients may run them to enable a save
/// button. Stateless, `Sendable`.
public enum MatchRules {
    /// Checks both sides: each has at least one player, nobody is listed twice on a side or on both sides,
    /// and every id exists.
    ///
    /// - Parameters:
    ///   - homePlayers: The home side, in order.
    ///   - awayPlayers: The away side, in order.
    ///   - playerExists: Whether a player id exists (a state lookup).
    /// - Returns: nil when the sides are valid, otherwise a rejection with the first broken rule's code
    ///   (`empty_side`, `player_listed_twice`, `player_on_both_sides`, `unknown_player`), a message naming it and
    ///   the side(s) involved as fields.
    public static func checkSides(
        homePlayers: [PlayerID],
        awayPlayers: [PlayerID],
        playerExists: (PlayerID) -> Bool
    ) -> MutationRejection? {
        for side in Side.allCases where (side == .home ? homePlayers : awayPlayers).isEmpty {
            return reject(.emptySide, "the \(side.rawValue) side needs at least one player", [.players(side)])
        }
        var home: Set<PlayerID> = []
        for id in homePlayers {
            guard home.insert(id).inserted else {
                return reject(
                    .playerListedTwice,
                    "player \(id.shortID) is listed twice on the home side",
                    [.homePlayers]
                )
            }
            guard playerExists(id) else {
                return reject(.unknownPlayer, "player \(id) does not exist", [.homePlayers])
            }
        }
        var away: Set<PlayerID> = []
        for id in awayPlayers {
            guard away.insert(id).inserted else {
                return reject(
                    .playerListedTwice,
                    "player \(id.shortID) is listed twice on the away side",
                    [.awayPlayers]
                )
            }
            guard !home.contains(id) else {
                return reject(
                    .playerOnBothSides,
                    "player \(id.shortID) cannot play on both sides",
                    [.homePlayers, .awayPlayers]
                )
            }
            guard playerExists(id) else {
                return reject(.unknownPlayer, "player \(id) does not exist", [.awayPlayers])
            }
        }
        return nil
    }

    /// Checks that a side's goals are within `Match.goalRange` (0…999); never clamps.
    /// - Returns: nil when in range, otherwise a `goals_out_of_range` rejection naming the side's goals field.
    public static func checkGoals(_ goals: Int, side: Side) -> MutationRejection? {
        guard !Match.goalRange.contains(goals) else { return nil }
        return MutationRejection(
            code: .goalsOutOfRange,
            message: "\(side.rawValue) goals would be \(goals); goals must stay within "
                + "\(Match.goalRange.lowerBound)…\(Match.goalRange.upperBound)",
            fields: [MatchField.goals(side).rawValue]
        )
    }

    private static func reject(
        _ code: MutationRejection.Code,
        _ message: String,
        _ fields: [MatchField]
    ) -> MutationRejection {
        MutationRejection(code: code, message: message, fields: fields.map(\.rawValue))
    }
}
