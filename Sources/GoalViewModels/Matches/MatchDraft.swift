import GoalClient
import GoalModel

/// The values of a match form: what the form started from, and how to turn the user's choices into the fields
/// an `update_match` writes. Value type, pure.
struct MatchDraft: Hashable, Sendable {
    var homePlayers: [PlayerID] = []
    var awayPlayers: [PlayerID] = []
    var homeGoals = 0
    var awayGoals = 0

    init(_ match: Match?) {
        guard let match else { return }
        homePlayers = match.homePlayers
        awayPlayers = match.awayPlayers
        homeGoals = match.homeGoals
        awayGoals = match.awayGoals
    }

    mutating func add(_ delta: Int, to side: Side) {
        if side == .home { homeGoals += delta } else { awayGoals += delta }
    }

    /// Only the fields whose value differs from the draft (player sides compared as sets).
    func update(
        home: Set<PlayerID>,
        away: Set<PlayerID>,
        homeGoals: Int,
        awayGoals: Int,
        replica: ReplicaState? = nil
    ) -> MatchUpdate {
        var update = MatchUpdate()
        if home != Set(homePlayers) {
            update.homePlayers = replica.map { MatchDraft.ordered(home, keeping: homePlayers, $0) } ?? Array(home)
        }
        if away != Set(awayPlayers) {
            update.awayPlayers = replica.map { MatchDraft.ordered(away, keeping: awayPlayers, $0) } ?? Array(away)
        }
        if homeGoals != self.homeGoals { update.homeGoals = homeGoals }
        if awayGoals != self.awayGoals { update.awayGoals = awayGoals }
        return update
    }

    /// What saving a form sends: `create_match` with every field for a new match (`original` nil), else
    /// `update_match` with only the fields that differ from `original`.
    static func saveAction(
        matchID: MatchID,
        original: MatchDraft?,
        home: Set<PlayerID>,
        away: Set<PlayerID>,
        homeGoals: Int,
        awayGoals: Int,
        replica: ReplicaState
    ) -> MutationAction {
        guard let original else {
            return .createMatch(
                id: matchID,
                homePlayers: ordered(home, keeping: [], replica),
                awayPlayers: ordered(away, keeping: [], replica),
                homeGoals: homeGoals,
                awayGoals: awayGoals
            )
        }
        let update = original.update(
            home: home,
            away: away,
            homeGoals: homeGoals,
            awayGoals: awayGoals,
            replica: replica
        )
        return .updateMatch(id: matchID, update)
    }

    /// A side's players in a stable order: those already on the side keep their order, new ones follow by name.
    static func ordered(_ ids: Set<PlayerID>, keeping existing: [PlayerID], _ replica: ReplicaState) -> [PlayerID] {
        let kept = existing.filter(ids.contains)
        let added = ids.subtracting(kept).sorted { lhs, rhs in
            let lhsKey = replica.players[lhs]?.nameKey ?? ""
            let rhsKey = replica.players[rhs]?.nameKey ?? ""
            return lhsKey != rhsKey ? lhsKey < rhsKey : lhs < rhs
        }
        return kept + added
    }
}
