import GRDB
public import GoalModel

/// Backups (`VACUUM INTO`, a consistent snapshot written from a reader connection, so the writer never waits)
/// and their validation and restore. Restoring needs the daemon stopped: nothing may hold the target open.
extension SQLiteLeagueStorage {
    /// What a validated backup holds. Value type, `Sendable`.
    public struct BackupSummary: Hashable, Sendable {
        /// The backup's head revision.
        public var head: Revision
        /// d_head.
        public var headDigest: Digest
        /// The backup's epoch (a restore replaces it).
        public var epoch: LeagueEpoch
        /// Players, matches and client instances in the backup.
        public var players: Int
        public var matches: Int
        public var clientInstances: Int
    }

    /// Writes a consistent copy of the database to `destination` (mode 0600) without blocking the writer.
    /// - Parameter destination: A path where no file exists yet.
    /// - Throws: `fileAccess` when a file already exists there or it cannot be written.
    public func backup(to destination: String) throws(StorageError) {
        guard !DatabaseFile.exists(destination) else {
            throw .fileAccess(path: destination, detail: "a file already exists; choose a new backup path")
        }
        try DatabaseFile.createOwnerOnly(destination)
        do {
            try run("backup(to:)") {
                try pool.unsafeRead { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
            }
        } catch {
            // Best effort: a partial copy is removed if it exists; the backup's own error is the one thrown.
            try? DatabaseFile.remove(destination)
            throw error
        }
        try DatabaseFile.restrictToOwner(destination)
    }

    /// Checks that `path` is a complete, intact goald database: it opens read-only, `PRAGMA integrity_check`
    /// says ok, its migrations are exactly the ones this goald knows, and its league rebuilds.
    /// - Returns: What the backup holds.
    /// - Throws: `notADatabase`, `corrupt`, `foreignDatabase`, `schemaTooNew`, `schemaIncomplete`,
    ///   `rebuildFailed`, `inconsistent`, `fileAccess`.
    public static func validateBackup(at path: String) throws(StorageError) -> BackupSummary {
        guard DatabaseFile.exists(path) else { throw .fileAccess(path: path, detail: "no such file") }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "goald.backup-check"
        let parts: LeagueParts
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Closing a read-only check connection cannot lose anything; its result (or error) is already decided.
            defer { try? queue.close() }
            parts = try queue.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard problems == ["ok"] else {
                    throw StorageError.corrupt(path: path, detail: problems.prefix(5).joined(separator: "; "))
                }
                try checkOwnership(db, path: path)
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                guard tables.contains("grdb_migrations") else {
                    throw StorageError.schemaIncomplete(path: path, missing: SQLiteSchema.migrator.migrations)
                }
                let applied = Set(try SQLiteSchema.migrator.appliedIdentifiers(db))
                let missing = SQLiteSchema.migrator.migrations.filter { !applied.contains($0) }
                guard missing.isEmpty else { throw StorageError.schemaIncomplete(path: path, missing: missing) }
                return try SQLiteReader.leagueParts(db)
            }
        } catch {
            throw SQLiteCoding.storageError(error, operation: "validateBackup(at:)", path: path)
        }
        let league = try parts.rebuild()
        return BackupSummary(
            head: league.head,
            headDigest: league.headDigest,
            epoch: league.epoch,
            players: league.state.allPlayers.count,
            matches: league.state.allMatches.count,
            clientInstances: league.state.allClientRecords.count
        )
    }

    /// Replaces the database at `databasePath` with a validated copy of `backupPath` and gives it a new epoch,
    /// so clients that resume with the old epoch get a snapshot. The daemon must not be running.
    ///
    /// Steps: validate the backup; copy it next to the target; open the copy (WAL, FULL, migrations), rotate its
    /// epoch and close it; remove the target's stale -wal and -shm; rename the copy over the target.
    /// - Returns: The restored database's summary, with its new epoch.
    public static func restore(
        backupAt backupPath: String,
        into databasePath: String
    ) throws(StorageError) -> BackupSummary {
        var summary = try validateBackup(at: backupPath)
        let staging = databasePath + ".restoring"
        for suffix in ["", "-wal", "-shm"] { try DatabaseFile.remove(staging + suffix) }
        try DatabaseFile.copy(backupPath, to: staging)
        let copy = try SQLiteLeagueStorage(path: staging)
        summary.epoch = try copy.rotateEpoch()
        _ = try copy.run("restore") { try copy.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) } }
        try copy.close()
        for suffix in ["-wal", "-shm"] {
            try DatabaseFile.remove(staging + suffix)
            try DatabaseFile.remove(databasePath + suffix)
        }
        try DatabaseFile.replace(databasePath, with: staging)
        return summary
    }
}
