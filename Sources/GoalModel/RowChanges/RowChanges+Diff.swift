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
        let (prefix, suffix) = RowChanges.unchangedEnds(old: old, new: new, identity: identity, matches: contentMatches)
        guard prefix + suffix > 0 else {
            self = RowChanges.diff(old: old, new: new, identity: identity, contentMatches: contentMatches)
            return
        }
        // Only the rows between the unchanged ends are diffed; their indexes are shifted back by `prefix`.
        let inner = RowChanges.diff(
            old: Array(old[prefix..<(old.count - suffix)]),
            new: Array(new[prefix..<(new.count - suffix)]),
            identity: identity,
            contentMatches: contentMatches
        )
        self.init(
            deletions: inner.deletions.map { $0 + prefix },
            modifications: inner.modifications.map { $0 + prefix },
            insertions: inner.insertions.map { $0 + prefix },
            moves: inner.moves.map { RowMove(from: $0.from + prefix, to: $0.to + prefix) }
        )
    }

    /// How many rows at the start and at the end are the same in `old` and `new` (same identity, same content,
    /// same place): they are neither deleted, inserted, modified nor moved, and every longest increasing run of
    /// kept rows includes them, so diffing only the rows between gives the same changes, found without hashing
    /// the unchanged rows (a live list changes a few rows among thousands). The end is not trimmed when one of its
    /// identities also occurs between the ends (duplicates pair up by occurrence, which trimming could change).
    @inlinable
    static func unchangedEnds<Element, ID: Hashable>(
        old: [Element],
        new: [Element],
        identity: (Element) -> ID,
        matches: (Element, Element) -> Bool
    ) -> (prefix: Int, suffix: Int) {
        let limit = min(old.count, new.count)
        var prefix = 0
        while prefix < limit, identity(old[prefix]) == identity(new[prefix]), matches(old[prefix], new[prefix]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < limit - prefix, case let i = old.count - 1 - suffix, case let j = new.count - 1 - suffix,
            identity(old[i]) == identity(new[j]), matches(old[i], new[j])
        {
            suffix += 1
        }
        guard suffix > 0 else { return (prefix, 0) }
        var between = Set<ID>()
        for i in prefix..<(old.count - suffix) { between.insert(identity(old[i])) }
        for j in prefix..<(new.count - suffix) { between.insert(identity(new[j])) }
        guard !between.isEmpty else { return (prefix, suffix) }
        for i in (old.count - suffix)..<old.count where between.contains(identity(old[i])) { return (prefix, 0) }
        return (prefix, suffix)
    }

    /// The diff proper (see `init(old:new:identity:contentMatches:)`), without trimming the unchanged ends.
    @inlinable
    static func diff<Element, ID: Hashable>(
        old: [Element],
        new: [Element],
        identity: (Element) -> ID,
        contentMatches: (Element, Element) -> Bool
    ) -> RowChanges {
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

        return RowChanges(deletions: deletions, modifications: modifications, insertions: insertions, moves: moves)
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
