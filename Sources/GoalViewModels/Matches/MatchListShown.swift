import GoalClient
import GoalModel

/// The match list as `MatchesViewModel` shows it — the matches this client is creating on top, then the replica's
/// rows (`MatchListRows`) with pending marks and optimistic scores (`MatchesViewModel.rows`) — and, per update,
/// the exact `RowChanges` from the rows it showed before, without diffing the list.
///
/// The changes are built from the rows an update can touch: the rows `MatchListRows` reports changed, the
/// matches being created (before and after) and the matches marked pending (before and after). Each is found by
/// id before and after (O(log n)); one shown only before is a deletion, only after an insertion, and one shown on
/// both sides is a modification when its row differs. Every other row keeps its content and its order relative to
/// the rows around it, so the only moves can be matches that crossed from the created rows on top into the
/// replica's rows (this client's new match committed) or back, and only when their place among the other rows
/// changed. After a rebuild of the replica's rows (a snapshot, another epoch) the changes are the diff of the whole
/// list (the rebuild's own when nothing is pending).
///
/// Cost per update: O((k + p) log n) for k rows changed in the replica and p pending mutations. Value type; its
/// view model keeps it on the main actor.
struct MatchListShown {
    /// The replica's rows, without pending marks.
    private(set) var listed = MatchListRows()
    /// The rows as last shown.
    private(set) var rows = PersistentList<MatchRow>()
    /// The matches being created, shown above the replica's rows, top first.
    private var created: [MatchID] = []
    /// Matches with a pending mutation when the rows were last made (marked where the replica lists them).
    private var marked: Set<MatchID> = []

    /// Notes an update the replica took (`MatchListRows.record(_:)`).
    mutating func record(_ update: ReplicaUpdate) {
        listed.record(update)
    }

    /// Re-makes the row of match `id` with its date at the next update (a history answer arrived).
    mutating func redate(_ id: MatchID) {
        listed.redate(id)
    }

    /// The row of `id` among `rows`; nil when they do not show it. O(log n + matches being created).
    func index(of id: MatchID) -> Int? {
        if let index = created.firstIndex(of: id) { return index }
        return listed.index(of: id).map { created.count + $0 }
    }

    /// Brings the rows to `replica` with this client's pending mutations.
    ///
    /// - Returns: The changes from the rows shown before to `rows`.
    mutating func update(
        to replica: ReplicaState,
        pending: PendingSet,
        score: OptimisticScore,
        dates: MatchDates
    ) -> RowChanges {
        let old = rows
        let oldListed = listed.rows
        let oldCreated = created
        let newCreated = pending.createdMatches.map(\.id)
        // Where each row this update may touch was shown, looked up before the replica's rows change.
        var before: [MatchID: Int] = [:]
        for (index, id) in oldCreated.enumerated() { before[id] = index }
        for id in marked.union(pending.matches).union(newCreated) where before[id] == nil {
            if let index = listed.index(of: id) { before[id] = oldCreated.count + index }
        }
        let hadPending = !marked.isEmpty
        let rebuilds = listed.rebuilds
        let listedChanges = listed.update(to: replica, dates: dates)
        rows = MatchesViewModel.rows(listed, replica: replica, pending: pending, score: score, dates: dates)
        created = newCreated
        marked = pending.matches
        guard listed.rebuilds == rebuilds, listedChanges.moves.isEmpty else {
            // Rebuilt (or a match moved: deleted and created again with its id in one batch): without pending rows
            // before or after, the shown rows are the listed ones and so are their changes (the diff); otherwise
            // the whole list is diffed.
            let plain = oldCreated.isEmpty && newCreated.isEmpty && !hadPending && marked.isEmpty
            return plain ? listedChanges : RowChanges(old: Array(old), new: Array(rows))
        }

        var touched = Set(before.keys).union(newCreated).union(pending.matches)
        for index in listedChanges.deletions + listedChanges.modifications {
            let id = oldListed[index].id
            before[id] = oldCreated.count + index
            touched.insert(id)
        }
        for index in listedChanges.insertions { touched.insert(listed.rows[index].id) }
        // Without rows removed or inserted anywhere, every row kept its index: no lookups after.
        let sameIndexes =
            listedChanges.deletions.isEmpty && listedChanges.insertions.isEmpty && oldCreated == newCreated
        var changes = RowChanges()
        for id in touched {
            switch (before[id], sameIndexes ? before[id] : self.index(of: id)) {
            case (nil, nil): continue
            case (let was?, nil): changes.deletions.append(was)
            case (nil, let now?): changes.insertions.append(now)
            case (let was?, let now?):
                if (was < oldCreated.count) != (now < newCreated.count) {
                    changes.moves.append(RowMove(from: was, to: now))
                }
                if old[was] != rows[now] { changes.modifications.append(was) }
            }
        }
        changes.deletions.sort()
        changes.insertions.sort()
        changes.modifications.sort()
        changes.moves = Self.movesOutOfOrder(changes)
        return changes
    }

    /// The rows of `changes.moves` (rows that crossed between the created rows and the replica's) that really
    /// changed their order relative to the rows kept in order, ascending by `to`; the others are kept rows. A
    /// crossing row keeps its order when as many kept-in-order rows come before it in the old rows as in the new
    /// ones (the kept rows are in the same order on both sides, so it then sits between the same two of them).
    /// Taken greedily, old order first: as few moves as the diff finds for the one or two crossings an update has.
    private static func movesOutOfOrder(_ changes: RowChanges) -> [RowMove] {
        var moves = changes.moves.sorted { $0.from < $1.from }
        var index = 0
        while index < moves.count {
            let move = moves[index]
            let keptBeforeOld =
                move.from - changes.deletions.count { $0 < move.from } - moves.count { $0.from < move.from }
            let keptBeforeNew = move.to - changes.insertions.count { $0 < move.to } - moves.count { $0.to < move.to }
            if keptBeforeOld == keptBeforeNew {
                moves.remove(at: index)
            } else {
                index += 1
            }
        }
        return moves.sorted { $0.to < $1.to }
    }
}
