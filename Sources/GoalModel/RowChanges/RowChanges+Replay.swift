extension RowChanges {
    /// Replays the changes on `old` in the documented order and returns the list a UI would end up showing.
    ///
    /// 1. Removes the rows at `deletions` and `moves[k].from`, highest old index first.
    /// 2. Inserts `new[to]` at each index of `insertions` and the removed row at each `moves[k].to`, lowest new
    ///    index first.
    /// 3. Replaces each row of `modifications` (by the old index it came from) with the new content at its
    ///    current place.
    ///
    /// A row neither inserted nor modified keeps its **old** value, so when the changes were computed from
    /// `old` and `new`, the result equals `new` only if every changed row was reported. Tests use it that way.
    ///
    /// Complexity: O((n + m) log(n + m)) for sorting plus O(n · (d + i)) for the array edits.
    /// - Parameters:
    ///   - old: The list the changes were computed from.
    ///   - new: The list the changes lead to (the source of inserted and reloaded rows).
    /// - Returns: The replayed list.
    /// - Precondition: every index is in range for the list it refers to, and no old index is both deleted and
    ///   moved; otherwise this traps.
    public func applied<Element>(to old: [Element], new: [Element]) -> [Element] {
        // Rows carry the old index they came from (nil for inserted rows) so step 3 can find them.
        var rows: [(oldIndex: Int?, value: Element)] = old.enumerated().map { ($0.offset, $0.element) }

        let removals = (deletions + moves.map(\.from)).sorted(by: >)
        precondition(Set(removals).count == removals.count, "an old index is deleted or moved twice")
        var removed: [Int: Element] = [:]
        for i in removals {
            precondition(i >= 0 && i < rows.count, "old index \(i) out of range")
            removed[i] = rows.remove(at: i).value
        }

        var additions: [(to: Int, oldIndex: Int?)] = insertions.map { ($0, nil) } + moves.map { ($0.to, $0.from) }
        additions.sort { $0.to < $1.to }
        for (to, oldIndex) in additions {
            precondition(to >= 0 && to <= rows.count && to < new.count, "new index \(to) out of range")
            if let oldIndex {
                rows.insert((oldIndex, removed[oldIndex]!), at: to)
            } else {
                rows.insert((nil, new[to]), at: to)
            }
        }
        precondition(rows.count == new.count, "replay gives \(rows.count) rows, the new list has \(new.count)")

        let reloaded = Set(modifications)
        for position in rows.indices {
            if let oldIndex = rows[position].oldIndex, reloaded.contains(oldIndex) {
                rows[position].value = new[position]
            }
        }
        return rows.map(\.value)
    }
}
