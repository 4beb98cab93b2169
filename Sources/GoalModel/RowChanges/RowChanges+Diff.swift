extension RowChanges {
    /// Computes the changes that turn `old` into `new`.
    ///
    /// Rows are matched by `identity`. A matched pair whose content does not match is a modification; the matched
    /// rows that are not on the longest increasing subsequence of their old indexes (taken in new order) are moves,
    /// so the number of moves is the smallest possible.
    ///
    /// **Duplicate identities** are a programming error in the caller, but they do not trap: the k-th row with a
    /// given identity in `old` is matched with the k-th row with that identity in `new`, and any extra rows are
    /// deleted or inserted. The result still replays to `new`.
    ///
    /// Complexity: O((n + m) log(n + m)) time and O(n + m) space for `old.count == n`, `new.count == m`: one hash per
    /// row on each side, one `contentMatches` call per matched row, and patience sorting for the moves. `@inlinable`
    /// so callers get it specialized for their row and id types (unspecialized, hashing goes through witness tables).
    ///
    /// - Parameters:
    ///   - old: The list as the UI shows it now.
    ///   - new: The list to show.
    ///   - identity: The row's identity (`\.id` works).
    ///   - contentMatches: True when two rows of the same identity look the same (no redraw needed).
    @inlinable
    public init<Element, ID: Hashable>(
        old: [Element],
        new: [Element],
        identity: (Element) -> ID,
        contentMatches: (Element, Element) -> Bool
    ) {
        // Old rows by identity. `firstOld[id]` is the first unmatched old index with that id (or -1 when all are
        // matched); `nextOld[i]` chains the later old indexes with the same id.
        var firstOld: [ID: Int] = [:]
        firstOld.reserveCapacity(old.count)
        var nextOld = [Int](repeating: -1, count: old.count)
        for i in old.indices.reversed() {
            if let later = firstOld.updateValue(i, forKey: identity(old[i])) {
                nextOld[i] = later
            }
        }

        var newIndexOfOld = [Int](repeating: -1, count: old.count)
        var keptOldIndexes: [Int] = []  // old index of each matched row, in new order
        keptOldIndexes.reserveCapacity(min(old.count, new.count))
        var keptNewIndexes: [Int] = []
        keptNewIndexes.reserveCapacity(min(old.count, new.count))
        var insertions: [Int] = []
        for j in new.indices {
            if let slot = firstOld.index(forKey: identity(new[j])), case let i = firstOld.values[slot], i >= 0 {
                firstOld.values[slot] = nextOld[i]
                newIndexOfOld[i] = j
                keptOldIndexes.append(i)
                keptNewIndexes.append(j)
            } else {
                insertions.append(j)
            }
        }

        var deletions: [Int] = []
        var modifications: [Int] = []
        for i in old.indices {
            let j = newIndexOfOld[i]
            if j < 0 {
                deletions.append(i)
            } else if !contentMatches(old[i], new[j]) {
                modifications.append(i)
            }
        }

        var moves: [RowMove] = []
        let stays = RowChanges.longestIncreasingSubsequence(keptOldIndexes)
        for k in keptOldIndexes.indices where !stays[k] {
            moves.append(RowMove(from: keptOldIndexes[k], to: keptNewIndexes[k]))
        }

        self.init(deletions: deletions, modifications: modifications, insertions: insertions, moves: moves)
    }

    /// Computes the changes that turn `old` into `new`, matching rows by `id` and comparing content with `==`.
    ///
    /// Same rules and complexity as `init(old:new:identity:contentMatches:)`.
    /// - Parameters:
    ///   - old: The list as the UI shows it now.
    ///   - new: The list to show.
    @inlinable
    public init<Element: Identifiable & Equatable>(old: [Element], new: [Element]) {
        self.init(old: old, new: new, identity: { $0.id }, contentMatches: ==)
    }
}
