public import HashTreeCollections

/// The authoritative in-memory state of the league: revision, players, matches, one rating per player, the
/// indexes the conflict engine needs, and the per-client exactly-once table.
///
/// Value type, `Sendable`, `Equatable`. Every map is a persistent hash tree (`TreeDictionary`), so copying the
/// state — capturing a snapshot for another queue — is O(1), and later changes to either copy share structure
/// with the other. A copy is never affected by changes to the original. The state has no lock and no
/// identity: whoever owns the variable (the engine's serial queue) is its only writer.
///
/// Only `ConflictEngine.apply(_:author:to:)` changes the league; the server also stamps and forgets exactly-once
/// records (`LeagueState+ClientRecords.swift`). Readers never fail.
public struct LeagueState: Sendable, Equatable {
    /// The revision of the latest commit (0 for the empty league).
    public internal(set) var revision: Revision
    /// Every existing player, by id.
    public internal(set) var players: TreeDictionary<PlayerID, Player>
    /// Every existing match, by id.
    public internal(set) var matches: TreeDictionary<MatchID, Match>
    /// One rating per existing player (zeros when unplayed), by player id.
    public internal(set) var ratings: TreeDictionary<PlayerID, Rating>
    /// The exactly-once table: one record per client instance that sent a mutation and was not forgotten since
    /// (`forgetClientRecords(usedBefore:)`).
    public internal(set) var clientRecords: TreeDictionary<ClientInstanceID, ClientRecord>

    /// Name key → the player holding it (uniqueness by key).
    var playerIDsByNameKey: TreeDictionary<String, PlayerID>
    /// Player id → number of matches referencing it; absent means 0 (`player_in_use`).
    var matchCounts: TreeDictionary<PlayerID, Int>

    /// The empty league at revision 0.
    public init() {
        revision = 0
        players = [:]
        matches = [:]
        ratings = [:]
        clientRecords = [:]
        playerIDsByNameKey = [:]
        matchCounts = [:]
    }

    /// Every player, in no particular order (O(1) to get, no copy). Needs no import of HashTreeCollections.
    public var allPlayers: some Collection<Player> { players.values }

    /// Every match, in no particular order (O(1) to get, no copy).
    public var allMatches: some Collection<Match> { matches.values }

    /// Every rating, one per player, in no particular order (O(1) to get, no copy).
    public var allRatings: some Collection<Rating> { ratings.values }

    /// Every client record of the exactly-once table, in no particular order (O(1) to get, no copy).
    public var allClientRecords: some Collection<ClientRecord> { clientRecords.values }

    /// The player with this id, if it exists.
    public func player(_ id: PlayerID) -> Player? { players[id] }

    /// The match with this id, if it exists.
    public func match(_ id: MatchID) -> Match? { matches[id] }

    /// The rating of an existing player; nil when the player does not exist.
    public func rating(of id: PlayerID) -> Rating? { ratings[id] }

    /// The player whose name has this key (see `PlayerName.key(for:)`), if any.
    public func player(withNameKey key: String) -> Player? {
        playerIDsByNameKey[key].flatMap { players[$0] }
    }

    /// How many matches reference a player; a player with a non-zero count cannot be deleted.
    public func matchCount(referencing id: PlayerID) -> Int { matchCounts[id] ?? 0 }

    /// The exactly-once record of a client instance, if it ever sent a mutation.
    public func clientRecord(for instance: ClientInstanceID) -> ClientRecord? { clientRecords[instance] }
}
