public import GoalModel

/// One page of an entity's log, as `LeagueStorage.history(of:before:limit:)` reads it in one snapshot: the frames
/// of the retained changesets that wrote the entity, newest first, and the log's bounds at that moment.
///
/// Value type, `Sendable`.
public struct HistoryPage: Hashable, Sendable {
    /// The frames, newest first, each of a changeset that wrote the entity (never one that only changed a rating).
    public var frames: [LogFrame]
    /// The oldest revision still in the log (nil when the log is empty); older history was pruned.
    public var oldestRetainedRevision: Revision?
    /// The store's head when the page was read.
    public var head: Revision
    /// True when the entity exists in the store now.
    public var exists: Bool

    public init(frames: [LogFrame], oldestRetainedRevision: Revision?, head: Revision, exists: Bool) {
        self.frames = frames
        self.oldestRetainedRevision = oldestRetainedRevision
        self.head = head
        self.exists = exists
    }
}
