import HashTreeCollections

/// Sorted lists, as the apps show them. Each call sorts (O(n log n)); call them off the engine queue on a
/// captured copy when the state is large.
extension LeagueState {
    /// Every rating, best first: rating descending, ties by the player's name key, then by id.
    ///
    /// Ratings compare exactly (as fractions of integers), so equal ratings tie even where `Double` would
    /// round them apart.
    public func rankings() -> [Rating] {
        ratings.values.sorted { lhs, rhs in
            switch LeagueState.compareValues(lhs, rhs) {
            case .greater: return true
            case .less: return false
            case .equal:
                let lhsKey = players[lhs.playerID]?.nameKey ?? ""
                let rhsKey = players[rhs.playerID]?.nameKey ?? ""
                if lhsKey != rhsKey { return lhsKey < rhsKey }
                return lhs.playerID < rhs.playerID
            }
        }
    }

    /// Every match, newest first by the revision that created it (ties, which only a rebuilt state can have,
    /// by id).
    public func matchesNewestFirst() -> [Match] {
        matches.values.sorted { lhs, rhs in
            if lhs.created.revision != rhs.created.revision { return lhs.created.revision > rhs.created.revision }
            return lhs.id < rhs.id
        }
    }

    /// Every player, by name key, then by id.
    public func playersByName() -> [Player] {
        players.values.sorted { lhs, rhs in
            if lhs.nameKey != rhs.nameKey { return lhs.nameKey < rhs.nameKey }
            return lhs.id < rhs.id
        }
    }

    private enum Ordering {
        case less
        case equal
        case greater
    }

    /// Compares points / played exactly; an unplayed record counts as 0.
    private static func compareValues(_ lhs: Rating, _ rhs: Rating) -> Ordering {
        // value = 10·points / (3·played); comparing points/played is enough. Cross-multiply in integers.
        let lhsPlayed = max(lhs.played, 1)
        let rhsPlayed = max(rhs.played, 1)
        let lhsPoints = lhs.played == 0 ? 0 : lhs.points
        let rhsPoints = rhs.played == 0 ? 0 : rhs.points
        let left = lhsPoints.multipliedFullWidth(by: rhsPlayed)
        let right = rhsPoints.multipliedFullWidth(by: lhsPlayed)
        if left.high != right.high { return left.high < right.high ? .less : .greater }
        if left.low != right.low { return left.low < right.low ? .less : .greater }
        return .equal
    }
}
