/// The id of a mutation: the client instance that minted it and its sequence number (1, 2, 3 …).
///
/// Minted when the mutation is created, not when it is sent, so a retry after reconnect carries the same id
/// and the server answers it from its exactly-once table instead of applying it twice.
public struct MutationID: Hashable, Sendable, CustomStringConvertible {
    public var instance: ClientInstanceID
    public var seq: UInt64

    public init(instance: ClientInstanceID, seq: UInt64) {
        self.instance = instance
        self.seq = seq
    }

    /// `instance#seq`, as error messages and `goal-client` print it.
    public var description: String { "\(instance)#\(seq)" }
}

/// The fields an `updateMatch` writes: only those the user changed are non-nil.
public struct MatchUpdate: Hashable, Sendable {
    public var homePlayers: [PlayerID]?
    public var awayPlayers: [PlayerID]?
    public var homeGoals: Int?
    public var awayGoals: Int?

    public init(
        homePlayers: [PlayerID]? = nil,
        awayPlayers: [PlayerID]? = nil,
        homeGoals: Int? = nil,
        awayGoals: Int? = nil
    ) {
        self.homePlayers = homePlayers
        self.awayPlayers = awayPlayers
        self.homeGoals = homeGoals
        self.awayGoals = awayGoals
    }

    /// The fields this update writes, in `MatchField.allCases` order.
    public var writtenFields: [MatchField] {
        var fields: [MatchField] = []
        if homePlayers != nil { fields.append(.homePlayers) }
        if awayPlayers != nil { fields.append(.awayPlayers) }
        if homeGoals != nil { fields.append(.homeGoals) }
        if awayGoals != nil { fields.append(.awayGoals) }
        return fields
    }

    /// True when the update writes no field at all.
    public var isEmpty: Bool { writtenFields.isEmpty }
}

/// What a mutation asks for. Names arrive raw and are validated by the conflict engine (`PlayerName`).
public enum MutationAction: Hashable, Sendable {
    case createPlayer(id: PlayerID, name: String)
    case renamePlayer(id: PlayerID, name: String)
    case deletePlayer(id: PlayerID)
    case createMatch(id: MatchID, homePlayers: [PlayerID], awayPlayers: [PlayerID], homeGoals: Int, awayGoals: Int)
    /// Writes only the fields that are set.
    case updateMatch(id: MatchID, MatchUpdate)
    /// An increment: concurrent increments all count.
    case adjustGoals(id: MatchID, side: Side, delta: Int)
    case deleteMatch(id: MatchID)

    /// The wire name of the operation (`create_player`, …).
    public var operation: String {
        switch self {
        case .createPlayer: "create_player"
        case .renamePlayer: "rename_player"
        case .deletePlayer: "delete_player"
        case .createMatch: "create_match"
        case .updateMatch: "update_match"
        case .adjustGoals: "adjust_goals"
        case .deleteMatch: "delete_match"
        }
    }
}

/// A client's request to change the league: an id for exactly-once, the revision at which the client READ the
/// values it edits (`base`), and the action.
public struct Mutation: Hashable, Sendable {
    public var id: MutationID
    /// The revision the edited values were read at (an edit form captures it when it opens).
    public var base: Revision
    public var action: MutationAction

    public init(id: MutationID, base: Revision, action: MutationAction) {
        self.id = id
        self.base = base
        self.action = action
    }
}
