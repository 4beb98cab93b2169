public import GoalModel

/// What a store holds durably, as `LeagueStorage.recover()` returns it: the rebuilt state at the head revision,
/// the head's chained digest, the epoch and the oldest changeset still in the log.
///
/// Value type, `Sendable`.
public struct DurableLeague: Sendable, Equatable {
    /// The league rebuilt with `LeagueState.init(revision:players:matches:clientRecords:)`, including the
    /// exactly-once table; `state.revision` is the head revision.
    public var state: LeagueState
    /// d_head (`Digest.genesis` for an empty league).
    public var headDigest: Digest
    /// The database's epoch.
    public var epoch: LeagueEpoch
    /// The oldest revision still in the changeset log; nil when the log is empty (nothing committed yet, or
    /// everything pruned).
    public var oldestRetainedRevision: Revision?
    /// The store's version when it was read (`SharedLeagueStorage`: bumped by every batch); 0 for stores only
    /// one process writes.
    public var version: StoreVersion

    public init(
        state: LeagueState,
        headDigest: Digest,
        epoch: LeagueEpoch,
        oldestRetainedRevision: Revision?,
        version: StoreVersion = 0
    ) {
        self.state = state
        self.headDigest = headDigest
        self.epoch = epoch
        self.oldestRetainedRevision = oldestRetainedRevision
        self.version = version
    }

    /// The revision of the last durable commit.
    public var head: Revision { state.revision }

    /// The log's bounds as `LeagueStorage.logBounds()` reports them.
    public var logBounds: LogBounds {
        LogBounds(oldestRetainedRevision: oldestRetainedRevision, head: head, headDigest: headDigest)
    }
}

/// The changeset log's extent: what a resume from a revision can be served from.
///
/// Value type, `Sendable`.
public struct LogBounds: Hashable, Sendable {
    /// The oldest revision still in the log; nil when the log is empty.
    public var oldestRetainedRevision: Revision?
    /// The revision of the last durable commit (0 for an empty league).
    public var head: Revision
    /// d_head.
    public var headDigest: Digest

    public init(oldestRetainedRevision: Revision?, head: Revision, headDigest: Digest) {
        self.oldestRetainedRevision = oldestRetainedRevision
        self.head = head
        self.headDigest = headDigest
    }

    /// True when every changeset in (since, head] is still in the log, so a resume from `since` can be served
    /// as a backlog; false means it needs a snapshot (pruned past it, or `since` is ahead of the head).
    public func backlogCovers(since: Revision) -> Bool {
        guard since <= head else { return false }
        if since == head { return true }
        guard let oldest = oldestRetainedRevision else { return false }
        return since + 1 >= oldest
    }
}
