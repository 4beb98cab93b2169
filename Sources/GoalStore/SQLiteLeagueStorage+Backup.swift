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
    /// says ok, its migrations are this goald's or a prefix of them (an older goald's complete database, which a
    /// restore brings up to date), and its league rebuilds.
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
                let known = SQLiteSchema.migrator.migrations
                let upToDate = known.prefix { applied.contains($0) }.count
                let missing = known.filter { !applied.contains($0) }
                guard applied.count == upToDate else {
                    throw StorageError.schemaIncomplete(path: path, missing: missing)
                }
                guard missing.isEmpty else { return try migratedLeagueParts(db) }
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

    /// The league of an older goald's database `db`, read from an in-memory copy brought up to date with this
    /// goald's migrations. Reading the file directly is not enough: the reader needs columns of later migrations
    /// (`client_records.last_used` is v2), and validating the migrated copy checks exactly what a restore installs,
    /// while the backup file itself stays untouched (it is open read-only).
    private static func migratedLeagueParts(_ db: Database) throws -> LeagueParts {
        var configuration = Configuration()
        configuration.label = "goald.backup-upgrade-check"
        let copy = try DatabaseQueue(configuration: configuration)
        try copy.writeWithoutTransaction { destination in try db.backup(to: destination) }
        try SQLiteSchema.migrator.migrate(copy)
        return try copy.read { db in try SQLiteReader.leagueParts(db) }
    }

    /// Replaces the database at `databasePath` with a validated copy of `backupPath` and gives it a new epoch,
    /// so clients that resume with the old epoch get a snapshot. The daemon must not be running.
    ///
    /// Steps: validate the backup; stage a copy next to the target (`stage`); swap it in (`install`).
    /// - Returns: The restored database's summary, with its new epoch.
    public static func restore(
        backupAt backupPath: String,
        into databasePath: String
    ) throws(StorageError) -> BackupSummary {
        var summary = try validateBackup(at: backupPath)
        let staging = stagingPath(for: databasePath)
        summary.epoch = try stage(backupAt: backupPath, as: staging)
        try install(staging, over: databasePath)
        return summary
    }

    /// Where a restore stages the copy that replaces `databasePath` (same directory, so the swap is a rename).
    static func stagingPath(for databasePath: String) -> String { databasePath + ".restoring" }

    /// Copies a (validated) backup to `staging`, opens the copy (WAL, FULL, migrations), rotates its epoch,
    /// checkpoints and closes it, leaving one self-contained file without -wal or -shm. Touches nothing else.
    /// - Returns: The copy's new epoch.
    static func stage(backupAt backupPath: String, as staging: String) throws(StorageError) -> LeagueEpoch {
        try removeStaging(staging)
        try DatabaseFile.copy(backupPath, to: staging)
        let copy = try SQLiteLeagueStorage(path: staging)
        let epoch: LeagueEpoch
        do {
            epoch = try copy.rotateEpoch()
            _ = try copy.run("restore") { try copy.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) } }
        } catch {
            // The staging copy is abandoned; the rotation's or checkpoint's error is the one to report.
            try? copy.close()
            throw error
        }
        try copy.close()
        for suffix in ["-wal", "-shm"] { try DatabaseFile.remove(staging + suffix) }
        return epoch
    }

    /// Removes a staged copy and its -wal and -shm files (those that exist).
    static func removeStaging(_ staging: String) throws(StorageError) {
        for suffix in ["", "-wal", "-shm"] { try DatabaseFile.remove(staging + suffix) }
    }

    /// Swaps a staged copy in: removes the target's stale -wal and -shm, then renames the copy over the target.
    static func install(_ staging: String, over databasePath: String) throws(StorageError) {
        for suffix in ["-wal", "-shm"] { try DatabaseFile.remove(databasePath + suffix) }
        try DatabaseFile.replace(databasePath, with: staging)
    }
}
