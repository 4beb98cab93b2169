public import GoalModel

/// Sorted lists, in the orders docs/RULES.md "Orders" fixes (the same as `LeagueState`'s): O(n log n) per call.
extension ReplicaState {
    /// Every player, by name key, then by id.
    public func playersByName() -> [Player] {
        players.values.sorted { lhs, rhs in
            if lhs.nameKey != rhs.nameKey { return lhs.nameKey < rhs.nameKey }
            return lhs.id < rhs.id
        }
    }

    /// Every match, newest first by the revision that created it (ties by id).
    public func matchesNewestFirst() -> [Match] {
        matches.values.sorted { lhs, rhs in
            if lhs.created.revision != rhs.created.revision { return lhs.created.revision > rhs.created.revision }
            return lhs.id < rhs.id
        }
    }

    /// Every rating, best first: rating descending (compared exactly, as fractions), ties by the player's name
    /// key, then by id.
    public func rankings() -> [Rating] {
        ratings.values.sorted { lhs, rhs in
            let order = ReplicaState.compareValues(lhs, rhs)
            if order != 0 { return order > 0 }
            let lhsKey = players[lhs.playerID]?.nameKey ?? ""
            let rhsKey = players[rhs.playerID]?.nameKey ?? ""
            if lhsKey != rhsKey { return lhsKey < rhsKey }
            return lhs.playerID < rhs.playerID
        }
    }

    /// The names of these players joined with ", " ("?" plus the short id for a player the replica lacks).
    public func names(_ ids: [PlayerID]) -> String {
        ids.map { players[$0]?.name ?? "?\($0.shortID)" }.joined(separator: ", ")
    }

    /// -1, 0 or 1 as points/played of `lhs` is below, equal to or above that of `rhs` (unplayed counts as 0).
    private static func compareValues(_ lhs: Rating, _ rhs: Rating) -> Int {
        let lhsPoints = lhs.played == 0 ? 0 : lhs.points
        let rhsPoints = rhs.played == 0 ? 0 : rhs.points
        let left = lhsPoints.multipliedFullWidth(by: max(rhs.played, 1))
        let right = rhsPoints.multipliedFullWidth(by: max(lhs.played, 1))
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        if left.low != right.low { return left.low < right.low ? -1 : 1 }
        return 0
    }
}
