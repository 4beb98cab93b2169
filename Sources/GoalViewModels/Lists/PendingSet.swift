import GoalClient
import GoalModel

/// What pending mutations mean for the lists: the entities they touch (rows marked "pending") and the entities
/// they create that the replica does not hold yet (rows shown ahead of the server, marked "pending").
/// Value type, built from `LeagueStore.pendingMutations` in seq order.
struct PendingSet {
    var matches: Set<MatchID> = []
    var players: Set<PlayerID> = []
    /// Matches being created, newest (highest seq) first.
    var createdMatches: [Match] = []
    /// Players being created, in seq order (names as typed; invalid ones are left out).
    var createdPlayers: [(id: PlayerID, name: PlayerName)] = []

    init(_ pending: [PendingMutation], replica: ReplicaState) {
        for mutation in pending {
            if let id = mutation.matchID { matches.insert(id) }
            if let id = mutation.playerID { players.insert(id) }
            switch mutation.mutation.action {
            case .createMatch(let id, let home, let away, let homeGoals, let awayGoals) where replica.matches[id] == nil:
                let stamp = FieldStamp(revision: replica.revision + 1, writer: mutation.id.instance)
                let match = Match(
                    id: id,
                    homePlayers: home,
                    awayPlayers: away,
                    homeGoals: homeGoals,
                    awayGoals: awayGoals,
                    created: stamp
                )
                createdMatches.insert(match, at: 0)
            case .createPlayer(let id, let raw) where replica.players[id] == nil:
                // A name the rules refuse will be rejected by the server; it is never shown as a pending player.
                if let name = try? PlayerName(validating: raw) { createdPlayers.append((id, name)) }
            default:
                break
            }
        }
    }
}
