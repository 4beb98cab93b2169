import GoalStore
import PostgresNIO

/// Writes batches to the shared store through `goald_append` (`PostgresAppendFunction`), which locks the league row
/// (the one serialization point between writers) and writes everything in one statement: the log rows with their
/// history index, each entity's state after the batch, the forgotten and touched client records, the new head and
/// version, and the notification other nodes listen for (delivered at commit). Any throw rolls the whole
/// transaction back.
///
/// A batch decided on a head the store moved past is written by deciding it again (`rebase`) on what the function
/// answered instead: first in short transactions of one statement each (`PostgresLeagueStorage.append`, through the
/// node's `PostgresCommitGroup`), so the row is locked only while the function runs; after `unlockedAttempts` such
/// tries (other nodes keep winning), here, inside one transaction that keeps the row locked from the first refusal to
/// the write, which cannot be refused again.
struct PostgresWriter {
    let connection: PostgresConnection

    /// How many one-statement transactions a batch gets before the writer holds the lock across its rebase.
    static let unlockedAttempts = 3

    /// Writes `batch`, decided on `base`, deciding it again on whatever other nodes wrote first, in one transaction
    /// that holds the league row from its first refusal on. Call outside a transaction.
    /// - Returns: The head after the write.
    func appendHoldingTheRow(
        _ batch: StorageBatch,
        onto base: StoreHead,
        rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
    ) throws -> StoreHead {
        var batch = batch
        var base = base
        return try connection.transaction {
            // The first refusal leaves the row locked by this transaction: the second attempt is written.
            for _ in 0..<2 {
                if let head = try attempt(&batch, onto: &base, rebase: rebase) { return head }
            }
            throw StorageError.inconsistent("the league row moved while this transaction held its lock")
        }
    }

    /// Writes `batch` when the store is at `base`; otherwise decides it again on what was written since and moves
    /// `base` to the head found. An empty batch is not written.
    /// - Returns: The head after the write, or nil when the store had moved.
    private func attempt(
        _ batch: inout StorageBatch,
        onto base: inout StoreHead,
        rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
    ) throws -> StoreHead? {
        guard !batch.isEmpty else { return base }
        switch try PostgresAppendCall(batch, onto: base).run(connection) {
        case .appended(let head):
            return head
        case .moved(let changes):
            batch = try rebase(changes)
            base = changes.head
            return nil
        }
    }

    /// Writes `batch` on whatever the head is, inside the caller's transaction, when it follows that head.
    /// - Returns: The head after the write.
    /// - Throws: `StorageError.revisionGap` (nothing written) when its first revision does not follow the head.
    func appendAtHead(_ batch: StorageBatch) throws -> StoreHead {
        let locked = try lockHead()
        guard !batch.isEmpty else { return locked }
        var expected = locked.revision + 1
        for commit in batch.commits {
            guard commit.revision == expected else {
                throw StorageError.revisionGap(expected: expected, found: commit.revision)
            }
            expected += 1
        }
        guard case .appended(let head) = try PostgresAppendCall(batch, onto: locked).run(connection) else {
            throw StorageError.inconsistent("the league row moved while this transaction held its lock")
        }
        return head
    }

    /// Locks the league row (the one serialization point between writers) and reads the head it guards.
    private func lockHead() throws -> StoreHead {
        guard let row = try connection.run("SELECT head_revision, version FROM league WHERE id = 1 FOR UPDATE").first
        else {
            throw StorageError.inconsistent("the league row is missing")
        }
        let (revision, version) = try row.decode((Int64, Int64).self)
        return StoreHead(revision: try PostgresCoding.revision(revision), version: version)
    }
}
