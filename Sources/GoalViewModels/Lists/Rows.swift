public import GoalModel

/// One row of the match list, as SwiftGoal shows it: "A, B" for each side and "2 : 1", plus the match's date.
/// Value type, `Sendable`; rows with the same `id` and different content are redrawn (a modification).
public struct MatchRow: Hashable, Sendable, Identifiable {
    public let id: MatchID
    /// The home players' names joined with ", ", in stored order.
    public let homePlayers: String
    /// The away players' names joined with ", ", in stored order.
    public let awayPlayers: String
    /// "home : away", e.g. "2 : 1".
    public let result: String
    /// True while a mutation of this match is waiting for the server's answer.
    public let isPending: Bool
    /// When the match was created (its creating changeset's time); nil until known, for a match being created,
    /// and when the server's log no longer holds the creation (`MatchDates`).
    public let created: Timestamp?
}

/// One row of the rankings: the player's name, the rating with two decimals ("6.67") and the record behind it
/// (played, won, drawn, lost), as `goal-client rankings` shows them.
/// Value type, `Sendable`.
public struct RankingRow: Hashable, Sendable, Identifiable {
    public let id: PlayerID
    public let name: String
    /// `"%.2f"` of the rating.
    public let rating: String
    /// Matches played (home and away).
    public let played: Int
    public let won: Int
    public let drawn: Int
    public let lost: Int

    public init(
        id: PlayerID,
        name: String,
        rating: String,
        played: Int = 0,
        won: Int = 0,
        drawn: Int = 0,
        lost: Int = 0
    ) {
        self.id = id
        self.name = name
        self.rating = rating
        self.played = played
        self.won = won
        self.drawn = drawn
        self.lost = lost
    }
}

/// One row of the player list. Value type, `Sendable`.
public struct PlayerRow: Hashable, Sendable, Identifiable {
    public let id: PlayerID
    public let name: String
    /// True while a mutation of this player is waiting for the server's answer.
    public let isPending: Bool
}
