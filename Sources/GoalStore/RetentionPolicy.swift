public import GoalModel

/// How much of the changeset log a store keeps: at most `maximumChangesets` changesets and none older than
/// `maximumAge`, whichever keeps less. The exactly-once table and the entities are never pruned.
///
/// A resume from a revision older than the log needs a snapshot (`LogBounds.backlogCovers(since:)`).
/// Value type, `Sendable`.
public struct RetentionPolicy: Hashable, Sendable {
    /// The most changesets kept (default 1,000,000).
    public var maximumChangesets: UInt64
    /// The age past which a changeset is pruned, measured against `prune(now:)`'s time (default 30 days).
    public var maximumAge: Duration
    /// Changesets deleted per transaction, so pruning never holds the writer for long (default 5,000).
    public var chunkSize: Int

    /// - Parameters:
    ///   - maximumChangesets: The most changesets kept.
    ///   - maximumAge: The age past which a changeset is pruned.
    ///   - chunkSize: Changesets deleted per transaction (at least 1).
    public init(
        maximumChangesets: UInt64 = 1_000_000,
        maximumAge: Duration = .seconds(30 * 24 * 3600),
        chunkSize: Int = 5_000
    ) {
        self.maximumChangesets = maximumChangesets
        self.maximumAge = maximumAge
        self.chunkSize = max(1, chunkSize)
    }

    /// 1,000,000 changesets or 30 days, whichever keeps less.
    public static let `default` = RetentionPolicy()

    /// A copy with some values replaced.
    public func with(
        maximumChangesets: UInt64? = nil,
        maximumAge: Duration? = nil,
        chunkSize: Int? = nil
    ) -> RetentionPolicy {
        RetentionPolicy(
            maximumChangesets: maximumChangesets ?? self.maximumChangesets,
            maximumAge: maximumAge ?? self.maximumAge,
            chunkSize: chunkSize ?? self.chunkSize
        )
    }

    /// The oldest time a kept changeset may have at `now`.
    public func cutoffTime(now: Timestamp) -> Int64 {
        let (seconds, attoseconds) = maximumAge.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int64.min }
        return now.millisecondsSince1970 &- (milliseconds.partialValue &+ attoseconds / 1_000_000_000_000_000)
    }

    /// The highest revision the count limit prunes (0 for none).
    public func countCutoff(head: Revision) -> Revision {
        head > maximumChangesets ? head - maximumChangesets : 0
    }
}

/// What one `prune(now:)` did. Value type, `Sendable`.
public struct PruneReport: Hashable, Sendable {
    /// Changesets deleted.
    public var deleted: Int
    /// The oldest revision still in the log afterwards; nil when the log is empty.
    public var oldestRetainedRevision: Revision?

    public init(deleted: Int, oldestRetainedRevision: Revision?) {
        self.deleted = deleted
        self.oldestRetainedRevision = oldestRetainedRevision
    }
}
