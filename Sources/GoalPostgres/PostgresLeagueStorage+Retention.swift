public import GoalModel
public import GoalStore
import PostgresNIO

/// Pruning the changeset log: one read plans the cut, then small delete transactions interleave with appends.
/// Only one store at a time prunes a league (a session advisory lock: the int8 `pruneLock` for the default league, as
/// before leagues; `(leaguePruneLocks, hashtext(schema))` for another); another finds it taken and skips.
extension PostgresLeagueStorage {
    /// An arbitrary constant: the advisory lock the pruning store holds.
    static let pruneLock: Int64 = 0x676F_616C_6470_726E
    /// The first key of the two-key advisory locks that other leagues prune under (`PostgresNodeClaim.namespace` is
    /// another space).
    static let leaguePruneLocks: Int32 = 0x676F_7072

    public func prune(now: Timestamp) throws(StorageError) -> PruneReport {
        let plan: (locked: Bool, range: (Revision, Revision)?) = try writer.withConnection("prune(now:)") {
            connection in
            let row = try connection.run("SELECT pg_try_advisory_lock(\(unescaped: pruneLockKeys))").first
            guard try row?.decode(Bool.self) == true else { return (false, nil) }
            return (true, try pruneRange(connection, now: now))
        }
        guard plan.locked else {
            return PruneReport(deleted: 0, oldestRetainedRevision: try logBounds().oldestRetainedRevision)
        }
        var deleted = 0
        do {
            if let (oldest, cutoff) = plan.range {
                var start = oldest
                while start <= cutoff {
                    let end = PostgresCoding.integer(min(cutoff, start + Revision(retention.chunkSize) - 1))
                    deleted += try writer.withConnection("prune(now:)") { connection in
                        // The history index goes with its log rows, in the same transaction.
                        try connection.transaction {
                            _ = try connection.execute("DELETE FROM changeset_entities WHERE revision <= \(end)")
                            return try connection.execute("DELETE FROM changesets WHERE revision <= \(end)")
                        }
                    }
                    start = Revision(end) + 1
                }
            }
        } catch {
            unlockPruning()
            throw error
        }
        unlockPruning()
        return PruneReport(deleted: deleted, oldestRetainedRevision: try logBounds().oldestRetainedRevision)
    }

    private func unlockPruning() {
        _ = try? writer.withConnection("prune(now:)") { connection in  // a lost connection released the lock already
            try connection.run("SELECT pg_advisory_unlock(\(unescaped: pruneLockKeys))")
        }
    }

    /// The keys of this league's pruning lock, as SQL (constants and a schema name of `[a-z0-9_]`: nothing to escape).
    private var pruneLockKeys: String {
        guard let schema = configuration.namespace.schema else { return "\(Self.pruneLock)" }
        return "\(Self.leaguePruneLocks), hashtext('\(schema)')"
    }

    /// The oldest logged revision and the last one to delete; nil when nothing goes.
    private func pruneRange(_ connection: PostgresConnection, now: Timestamp) throws -> (Revision, Revision)? {
        let bounds = try PostgresReader.bounds(connection)
        guard let oldest = bounds.oldestRetainedRevision else { return nil }
        let cutoffTime = retention.cutoffTime(now: now)
        let firstYoung = try connection.run(
            "SELECT revision FROM changesets WHERE time >= \(cutoffTime) ORDER BY revision LIMIT 1"
        ).first.map { try PostgresCoding.revision(try $0.decode(Int64.self)) }
        let byAge = firstYoung.map { $0 - 1 } ?? bounds.head
        let cutoff = max(byAge, retention.countCutoff(head: bounds.head))
        return cutoff >= oldest ? (oldest, cutoff) : nil
    }
}
