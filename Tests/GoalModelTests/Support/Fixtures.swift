import Foundation
import GoalModel

/// Deterministic ids: player n is 00000000-0000-0000-0000-0000000000nn (hex of n).
func pid(_ n: Int) -> PlayerID {
    PlayerID(uuidString(n, prefix: "00000000"))!
}

/// Deterministic ids: match n is 11111111-0000-0000-0000-0000000000nn (hex of n).
func mid(_ n: Int) -> MatchID {
    MatchID(uuidString(n, prefix: "11111111"))!
}

private func uuidString(_ n: Int, prefix: String) -> String {
    let hex = String(n, radix: 16)
    return "\(prefix)-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex
}

/// Client instances used by the scenarios.
let setupClient = ClientInstanceID("setup")!
let clientA = ClientInstanceID("alpha")!
let clientB = ClientInstanceID("bravo")!
let clientC = ClientInstanceID("charlie")!

/// A state plus per-instance seq counters, so tests read like a script of client actions.
struct League {
    var state = LeagueState()
    private var seqs: [ClientInstanceID: UInt64] = [:]

    /// Mints the next id of `instance`.
    mutating func nextID(_ instance: ClientInstanceID) -> MutationID {
        let seq = (seqs[instance] ?? 0) + 1
        seqs[instance] = seq
        return MutationID(instance: instance, seq: seq)
    }

    /// Applies an action from `instance` read at `base` (default: the current revision).
    @discardableResult
    mutating func run(_ action: MutationAction, by instance: ClientInstanceID, base: Revision? = nil) -> EngineDecision
    {
        let mutation = Mutation(id: nextID(instance), base: base ?? state.revision, action: action)
        return ConflictEngine.apply(mutation, author: instance.rawValue, to: &state)
    }

    /// The standard fixture at revision 8:
    /// players p1 "Alice", p2 "Bob", p3 "Carol", p4 "Dave", p5 "Erin", p6 "Frank" (revisions 1–6);
    /// m1 = [p1] 0:0 [p2] (revision 7); m2 = [p3, p4] 1:0 [p5] (revision 8). p6 plays in no match.
    static func standard() -> League {
        var league = League()
        for (n, name) in ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"].enumerated() {
            league.run(.createPlayer(id: pid(n + 1), name: name), by: setupClient)
        }
        league.run(
            .createMatch(id: mid(1), homePlayers: [pid(1)], awayPlayers: [pid(2)], homeGoals: 0, awayGoals: 0),
            by: setupClient
        )
        league.run(
            .createMatch(id: mid(2), homePlayers: [pid(3), pid(4)], awayPlayers: [pid(5)], homeGoals: 1, awayGoals: 0),
            by: setupClient
        )
        precondition(league.state.revision == League.fixtureRevision)
        return league
    }

    /// The revision of `standard()`.
    static let fixtureRevision: Revision = 8
}

extension EngineDecision {
    /// The commit, if this is one.
    var commit: Commit? {
        if case .commit(let commit) = self { return commit }
        return nil
    }

    /// The rejection, if this is one.
    var rejection: MutationRejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}
