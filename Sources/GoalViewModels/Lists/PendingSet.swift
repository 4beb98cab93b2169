import GoalClient
import GoalModel

/// The entities touched by pending mutations, for marking rows "pending". Value type.
struct PendingSet {
    var matches: Set<MatchID> = []
    var players: Set<PlayerID> = []

    init(_ pending: [PendingMutation]) {
        for mutation in pending {
            if let id = mutation.matchID { matches.insert(id) }
            if let id = mutation.playerID { players.insert(id) }
        }
    }
}
