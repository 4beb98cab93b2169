import GoalClient
import GoalModel

/// Where a `ListFeed`'s rows come from, for a replica and its pending mutations. Main-actor confined, like its feed.
enum ListRowSource<Row: Identifiable & Equatable & Sendable> {
    /// The rows, rebuilt every time; the feed diffs them against the rows shown (`RowChanges(old:new:)`, O(n)).
    case rebuilt((ReplicaState, [PendingMutation]) -> [Row])
    /// The rows, patched by the source, with the exact changes from the rows it gave last (the feed shows every
    /// result), and the index of an entity's row among them (nil: not shown). Both should cost O(k log n).
    case patched(
        (ReplicaState, [PendingMutation]) -> (rows: PersistentList<Row>, changes: RowChanges),
        index: (Row.ID) -> Int?
    )
}
