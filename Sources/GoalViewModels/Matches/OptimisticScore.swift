import GoalClient
import GoalModel

/// The score a match will have once this client's pending goal mutations commit: the replica's goals plus every
/// pending `adjust_goals` delta, and a pending `update_match`'s goals where it writes them.
///
/// A pending mutation whose changeset has already reached the replica (its ack not yet processed) is left out
/// through `applied`, so a goal is never counted twice. A delta that would leave 0…999 is not shown: the server
/// will refuse it and the refusal is shown instead. Value type; pure.
struct OptimisticScore {
    /// Home and away goals per match with a pending goal change.
    private(set) var goals: [MatchID: (home: Int, away: Int)] = [:]

    /// - Parameters:
    ///   - pending: This client's pending mutations, in seq order.
    ///   - replica: The replica the rows are computed from.
    ///   - applied: Ids of pending mutations whose changeset the replica already holds.
    init(_ pending: [PendingMutation], replica: ReplicaState, applied: Set<MutationID>) {
        for entry in pending where !applied.contains(entry.id) {
            switch entry.mutation.action {
            case .adjustGoals(let id, let side, let delta):
                guard let match = replica.matches[id] else { continue }
                var score = goals[id] ?? (match.homeGoals, match.awayGoals)
                let next = (side == .home ? score.home : score.away) + delta
                guard Match.goalRange.contains(next) else { continue }
                if side == .home { score.home = next } else { score.away = next }
                goals[id] = score
            case .updateMatch(let id, let update) where update.homeGoals != nil || update.awayGoals != nil:
                guard let match = replica.matches[id] else { continue }
                let score = goals[id] ?? (match.homeGoals, match.awayGoals)
                goals[id] = (update.homeGoals ?? score.home, update.awayGoals ?? score.away)
            default:
                continue
            }
        }
    }

    /// "home : away" for `match`, optimistic where a goal change is pending.
    func result(of match: Match) -> String {
        let score = goals[match.id] ?? (match.homeGoals, match.awayGoals)
        return "\(score.home) : \(score.away)"
    }
}
