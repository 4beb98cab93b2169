import HashTreeCollections

/// Rebuilding a state from what the store persists.
extension LeagueState {
    /// Rebuilds a state from persisted parts, recomputing the derived ones: ratings (from every match), the
    /// name-key index and the per-player match counts. O(players + matches).
    ///
    /// - Parameters:
    ///   - revision: The revision of the last durable commit.
    ///   - players: Every player (names already normalized, keys already computed).
    ///   - matches: Every match.
    ///   - clientRecords: The exactly-once table.
    /// - Throws: `LeagueStateError` when the parts break an invariant (duplicate ids or name keys, a match
    ///   referencing a missing player or listing one twice, a stamp newer than `revision`).
    public init(
        revision: Revision,
        players: some Sequence<Player>,
        matches: some Sequence<Match>,
        clientRecords: some Sequence<ClientRecord>
    ) throws(LeagueStateError) {
        self.init()
        self.revision = revision
        for player in players {
            guard self.players[player.id] == nil else { throw .duplicatePlayer(player.id) }
            guard playerIDsByNameKey[player.nameKey] == nil else { throw .duplicateNameKey(player.nameKey) }
            guard player.revision <= revision else { throw .revisionBehind(revision, stamp: player.revision) }
            self.players[player.id] = player
            playerIDsByNameKey[player.nameKey] = player.id
            ratings[player.id] = Rating(playerID: player.id)
        }
        for match in matches {
            guard self.matches[match.id] == nil else { throw .duplicateMatch(match.id) }
            guard match.revision <= revision else { throw .revisionBehind(revision, stamp: match.revision) }
            var seen: Set<PlayerID> = []
            for id in match.allPlayers {
                guard self.players[id] != nil else { throw .unknownPlayer(match: match.id, player: id) }
                guard seen.insert(id).inserted else { throw .playerRepeated(match: match.id, player: id) }
            }
            self.matches[match.id] = match
            count(match, sign: 1)
        }
        for record in clientRecords {
            guard self.clientRecords[record.instance] == nil else { throw .duplicateClient(record.instance) }
            self.clientRecords[record.instance] = record
        }
    }
}
