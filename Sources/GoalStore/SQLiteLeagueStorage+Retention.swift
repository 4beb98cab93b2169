import GRDB
public import GoalModel

/// Pruning the changeset log: one read plans the cut, then small delete transactions interleave with appends.
extension SQLiteLeagueStorage {
    public func prune(now: Timestamp) throws(StorageError) -> PruneReport {
        try run("prune(now:)") {
            let plan = try pool.read { db in try Self.pruneCutoff(db, policy: retention, now: now) }
            var deleted = 0
            if let (oldest, cutoff) = plan {
                var start = oldest
                while start <= cutoff {
                    let end = min(cutoff, start + Revision(retention.chunkSize) - 1)
                    deleted += try pool.write { db in
                        try db.cachedStatement(sql: "DELETE FROM changesets WHERE revision <= ?")
                            .execute(arguments: [SQLiteCoding.integer(end)])
                        let count = db.changesCount
                        // The history index goes with its log rows, in the same transaction.
                        try db.cachedStatement(sql: "DELETE FROM changeset_entities WHERE revision <= ?")
                            .execute(arguments: [SQLiteCoding.integer(end)])
                        return count
                    }
                    start = end + 1
                }
            }
            let oldest = try pool.read { db in try SQLiteReader.bounds(db).oldestRetainedRevision }
            return PruneReport(deleted: deleted, oldestRetainedRevision: oldest)
        }
    }

    /// The oldest logged revision and the last one to delete; nil when nothing goes. The age cut scans from the
    /// oldest row and stops at the first one young enough, so it reads only what it deletes (plus one row).
    private static func pruneCutoff(
        _ db: Database,
        policy: RetentionPolicy,
        now: Timestamp
    ) throws -> (Revision, Revision)? {
        let bounds = try SQLiteReader.bounds(db)
        guard let oldest = bounds.oldestRetainedRevision else { return nil }
        let firstYoung = try Int64.fetchOne(
            db,
            sql: "SELECT revision FROM changesets WHERE time >= ? ORDER BY revision LIMIT 1",
            arguments: [policy.cutoffTime(now: now)]
        )
        let byAge = try firstYoung.map { try SQLiteCoding.revision($0) - 1 } ?? bounds.head
        let cutoff = max(byAge, policy.countCutoff(head: bounds.head))
        return cutoff >= oldest ? (oldest, cutoff) : nil
    }
}
