/// A side of a match.
public enum Side: String, Hashable, Sendable, CaseIterable {
    case home
    case away

    /// The other side.
    public var opposite: Side { self == .home ? .away : .home }
}

/// The fields of a match a mutation can write; they name conflicts on the wire.
public enum MatchField: String, Hashable, Sendable, CaseIterable {
    case homePlayers = "home_players"
    case awayPlayers = "away_players"
    case homeGoals = "home_goals"
    case awayGoals = "away_goals"

    /// The players field of a side.
    public static func players(_ side: Side) -> MatchField { side == .home ? .homePlayers : .awayPlayers }

    /// The goals field of a side.
    public static func goals(_ side: Side) -> MatchField { side == .home ? .homeGoals : .awayGoals }
}

/// One stamp per match field: who last wrote it and when.
public struct MatchStamps: Hashable, Sendable {
    public var homePlayers: FieldStamp
    public var awayPlayers: FieldStamp
    public var homeGoals: FieldStamp
    public var awayGoals: FieldStamp

    /// All four fields stamped with the same write (creation).
    public init(all stamp: FieldStamp) {
        homePlayers = stamp
        awayPlayers = stamp
        homeGoals = stamp
        awayGoals = stamp
    }

    public init(homePlayers: FieldStamp, awayPlayers: FieldStamp, homeGoals: FieldStamp, awayGoals: FieldStamp) {
        self.homePlayers = homePlayers
        self.awayPlayers = awayPlayers
        self.homeGoals = homeGoals
        self.awayGoals = awayGoals
    }

    /// The stamp of one field.
    public subscript(field: MatchField) -> FieldStamp {
        get {
            switch field {
            case .homePlayers: homePlayers
            case .awayPlayers: awayPlayers
            case .homeGoals: homeGoals
            case .awayGoals: awayGoals
            }
        }
        set {
            switch field {
            case .homePlayers: homePlayers = newValue
            case .awayPlayers: awayPlayers = newValue
            case .homeGoals: homeGoals = newValue
            case .awayGoals: awayGoals = newValue
            }
        }
    }

    /// The newest revision among the four fields.
    public var latestRevision: Revision {
        max(homePlayers.revision, awayPlayers.revision, homeGoals.revision, awayGoals.revision)
    }
}

/// A match between two sides of one or more players.
///
/// Value type, `Sendable`. Invariants (checked by `MatchRules`, not by this initializer): each side has at
/// least one player, no player is on both sides or twice on one side, goals are within `Match.goalRange`.
/// Lists show matches newest first by `created.revision`.
public struct Match: Hashable, Sendable, Identifiable {
    /// The allowed goals per side; leaving it is rejected, never clamped.
    public static let goalRange: ClosedRange<Int> = 0...999

    public let id: MatchID
    /// Home players, in the order the author gave them.
    public var homePlayers: [PlayerID]
    /// Away players, in the order the author gave them.
    public var awayPlayers: [PlayerID]
    public var homeGoals: Int
    public var awayGoals: Int
    /// The commit that created the match; its revision orders the match list (newest first).
    public var created: FieldStamp
    /// Per-field stamps.
    public var stamps: MatchStamps

    public init(
        id: MatchID,
        homePlayers: [PlayerID],
        awayPlayers: [PlayerID],
        homeGoals: Int,
        awayGoals: Int,
        created: FieldStamp,
        stamps: MatchStamps? = nil
    ) {
        self.id = id
        self.homePlayers = homePlayers
        self.awayPlayers = awayPlayers
        self.homeGoals = homeGoals
        self.awayGoals = awayGoals
        self.created = created
        self.stamps = stamps ?? MatchStamps(all: created)
    }

    /// The revision of the entity's latest change.
    public var revision: Revision { max(created.revision, stamps.latestRevision) }

    /// The players of a side.
    public func players(_ side: Side) -> [PlayerID] { side == .home ? homePlayers : awayPlayers }

    /// The goals of a side.
    public func goals(_ side: Side) -> Int { side == .home ? homeGoals : awayGoals }

    /// Every player of the match, home first.
    public var allPlayers: [PlayerID] { homePlayers + awayPlayers }

    /// The outcome from one side's point of view.
    public func outcome(for side: Side) -> MatchOutcome {
        let own = goals(side)
        let other = goals(side.opposite)
        return own > other ? .win : (own == other ? .draw : .loss)
    }
}

/// Win, draw or loss from one side's point of view; only the sign of the goal difference counts.
public enum MatchOutcome: Hashable, Sendable {
    case win
    case draw
    case loss
}
