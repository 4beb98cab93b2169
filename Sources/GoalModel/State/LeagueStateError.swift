/// Why persisted parts could not be rebuilt into a `LeagueState`: the parts break an invariant the store
/// should have kept (a corrupt or hand-edited database). Value type, `Sendable`.
public struct LeagueStateError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case duplicatePlayer(PlayerID)
        case duplicateMatch(MatchID)
        case duplicateNameKey(String)
        case unknownPlayer(MatchID, PlayerID)
        case playerRepeated(MatchID, PlayerID)
        case revisionBehind(Revision, Revision)
        case duplicateClient(ClientInstanceID)
        case notNext(Revision, Revision)
    }

    private let kind: Kind

    /// Two players share an id.
    public static func duplicatePlayer(_ id: PlayerID) -> LeagueStateError { .init(kind: .duplicatePlayer(id)) }
    /// Two matches share an id.
    public static func duplicateMatch(_ id: MatchID) -> LeagueStateError { .init(kind: .duplicateMatch(id)) }
    /// Two players share a name key.
    public static func duplicateNameKey(_ key: String) -> LeagueStateError { .init(kind: .duplicateNameKey(key)) }
    /// A match references a player that does not exist.
    public static func unknownPlayer(match: MatchID, player: PlayerID) -> LeagueStateError {
        .init(kind: .unknownPlayer(match, player))
    }
    /// A match lists a player twice (on one side or on both).
    public static func playerRepeated(match: MatchID, player: PlayerID) -> LeagueStateError {
        .init(kind: .playerRepeated(match, player))
    }
    /// An entity is stamped with a revision newer than the state's revision.
    public static func revisionBehind(_ revision: Revision, stamp: Revision) -> LeagueStateError {
        .init(kind: .revisionBehind(revision, stamp))
    }
    /// Two client records share an instance id.
    public static func duplicateClient(_ id: ClientInstanceID) -> LeagueStateError {
        .init(kind: .duplicateClient(id))
    }

    /// A replayed changeset does not follow the state's revision.
    public static func notNext(_ revision: Revision, changeset: Revision) -> LeagueStateError {
        .init(kind: .notNext(revision, changeset))
    }

    public var description: String {
        switch kind {
        case .duplicatePlayer(let id): "two players have the id \(id)"
        case .duplicateMatch(let id): "two matches have the id \(id)"
        case .duplicateNameKey(let key): "two players have the name key \"\(key)\""
        case .unknownPlayer(let match, let player): "match \(match) references player \(player), which does not exist"
        case .playerRepeated(let match, let player): "match \(match) lists player \(player) more than once"
        case .revisionBehind(let revision, let stamp): "state revision \(revision) is older than a stamp at \(stamp)"
        case .duplicateClient(let id): "two client records have the instance \(id)"
        case .notNext(let revision, let changeset): "changeset \(changeset) does not follow revision \(revision)"
        }
    }
}
