import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSupport

/// SwiftGoal's `MockStore` fixture on a real in-memory league: players C, A, D, B (created in that order);
/// match 1 [C, A] vs [D, B] 2 : 1, then match 2 [C, B] vs [A, D] 0 : 1 (newest first: match 2, then match 1 —
/// so the list reads like SwiftGoal's fixture order when the matches are created 2 then 1).
struct MockLeague {
    let league = InMemoryLeague()
    let c = PlayerID()
    let a = PlayerID()
    let d = PlayerID()
    let b = PlayerID()
    let match1 = MatchID()
    let match2 = MatchID()
    let seeder = ClientInstanceID("seeder")!

    init() {
        var seq: UInt64 = 0
        func commit(_ action: MutationAction) {
            seq += 1
            let outcome = league.apply(
                Mutation(id: MutationID(instance: seeder, seq: seq), base: league.revision, action: action)
            )
            guard case .committed = outcome else { preconditionFailure("fixture mutation failed: \(outcome)") }
        }
        commit(.createPlayer(id: c, name: "C"))
        commit(.createPlayer(id: a, name: "A"))
        commit(.createPlayer(id: d, name: "D"))
        commit(.createPlayer(id: b, name: "B"))
        // Created oldest first: match 2, then match 1, so match 1 (newest) is row 0.
        commit(.createMatch(id: match2, homePlayers: [c, b], awayPlayers: [a, d], homeGoals: 0, awayGoals: 1))
        commit(.createMatch(id: match1, homePlayers: [c, a], awayPlayers: [d, b], homeGoals: 2, awayGoals: 1))
    }

    /// A store for one client of this league.
    func store(_ instance: String = "viewer-a", role: Role = .admin) -> InMemoryLeagueStore {
        InMemoryLeagueStore(league: league, instance: ClientInstanceID(instance)!, role: role)
    }
}
