import GRDB
import GoalLocking
public import GoalModel

/// The durable `LeagueStorage`: one SQLite database (GRDB `DatabasePool`) in WAL mode with
/// `PRAGMA synchronous = FULL`, so a returned `append` survives power loss.
///
/// The initializer opens the file eagerly (create it 0600 if missing, set and READ BACK `synchronous = FULL`
/// and `journal_mode = wal`, refuse foreign or newer databases, run the migrations), so the daemon can open
/// it before its listener. Threading: `Sendable`. Writes go through the pool's single writer connection, one
/// transaction each; reads run on reader connections in their own snapshot (WAL), so backlog, snapshot and
/// token reads never block the writer and never see part of a batch. Lifetime: open until `close()`; after it
/// every call throws `StorageError.closed(call:)`. The object must be closed (or released) before another
/// process swaps the file (restore).
public final class SQLiteLeagueStorage: LeagueStorage {
    /// The database file.
    public let path: String
    public var kind: String { "sqlite" }
    let pool: DatabasePool
    /// A second read-write connection used only for passive WAL checkpoints, so they never queue behind (or
    /// hold up) the writer's transactions.
    private let checkpointer: DatabaseQueue
    let retention: RetentionPolicy
    private let isClosed = LockedValue(false)

    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - path: The database file; its directory must exist.
    ///   - retention: What `prune(now:)` keeps.
    /// - Throws: `StorageError`: `notADatabase`, `corrupt`, `foreignDatabase`, `schemaTooNew`,
    ///   `synchronousNotFull`, `journalModeNotWAL`, `fileAccess`, `database`.
    public init(path: String, retention: RetentionPolicy = .default) throws(StorageError) {
        self.path = path
        self.retention = retention
        try DatabaseFile.createOwnerOnly(path)
        var configuration = Configuration()
        configuration.label = "goald.store"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        var checkpointing = Configuration()
        checkpointing.label = "goald.store.checkpoint"
        checkpointing.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            checkpointer = try DatabaseQueue(path: path, configuration: checkpointing)
        } catch {
            throw SQLiteCoding.storageError(error, operation: "open", path: path)
        }
        try run("open") {
            // GRDB switches a new writer to `synchronous = NORMAL` when it enables WAL, after `prepareDatabase`
            // ran: set FULL again on the writer, then assert it.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try SQLiteLeagueStorage.assertDurable(db)
                try SQLiteLeagueStorage.checkOwnership(db, path: path)
            }
            try SQLiteSchema.migrator.migrate(pool)
            // Open a reader now too, so every file the store needs is open before the listener.
            _ = try pool.read { db in try Int64.fetchOne(db, sql: "SELECT head_revision FROM league") }
        }
    }

    /// The writer connection's durability settings, read back from SQLite.
    public func durabilitySettings() throws(StorageError) -> DurabilitySettings {
        try run("durabilitySettings()") {
            try pool.writeWithoutTransaction { db in
                DurabilitySettings(
                    synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1,
                    journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
                )
            }
        }
    }

    /// Runs `body` on the open store, mapping any GRDB error to `StorageError`.
    func run<T>(_ call: String, _ body: () throws -> T) throws(StorageError) -> T {
        guard !isClosed.withLock({ $0 }) else { throw .closed(call: call) }
        do {
            return try body()
        } catch {
            throw SQLiteCoding.storageError(error, operation: call, path: path)
        }
    }

    private static func assertDurable(_ db: Database) throws {
        let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
        guard synchronous == 2 else { throw StorageError.synchronousNotFull(found: synchronous) }
        let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
        guard journalMode.lowercased() == "wal" else { throw StorageError.journalModeNotWAL(found: journalMode) }
    }

    /// Refuses an SQLite file that has tables but no goald migrations, or migrations from a newer goald.
    static func checkOwnership(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(
            db,
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        if !tables.isEmpty && !tables.contains("grdb_migrations") { throw StorageError.foreignDatabase(path: path) }
        if try SQLiteSchema.migrator.hasBeenSuperseded(db) { throw StorageError.schemaTooNew(path: path) }
    }

    public func recover() throws(StorageError) -> DurableLeague {
        let parts = try run("recover()") { try pool.read { db in try SQLiteReader.leagueParts(db) } }
        // Reading every row filled the connections' page caches; a league that then sits idle should not keep them
        // (the next reads fill what they need again).
        pool.releaseMemory()
        return try parts.rebuild()
    }

    public func append(_ batch: StorageBatch) throws(StorageError) {
        try run("append(_:)") {
            guard !batch.isEmpty else { return }
            try pool.write { db in try SQLiteWriter(db).append(batch) }
        }
    }

    public func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        try run("backlog(after:upTo:limit:)") {
            try pool.read { db in try SQLiteReader.backlog(db, after: after, upTo: upTo, limit: limit) }
        }
    }

    public func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage {
        try run("history(of:before:limit:)") {
            try pool.read { db in try SQLiteHistoryReader.page(db, of: entity, before: before, limit: limit) }
        }
    }

    public func logBounds() throws(StorageError) -> LogBounds {
        try run("logBounds()") { try pool.read { db in try SQLiteReader.bounds(db) } }
    }

    /// Copies committed WAL frames into the database file without waiting for readers or the writer
    /// (`PRAGMA wal_checkpoint(PASSIVE)` on a connection of its own). SQLite's automatic checkpoint stays on as a
    /// backstop; calling this periodically keeps the WAL short so the writer rarely pays for one.
    public func checkpoint() throws(StorageError) {
        try run("checkpoint()") {
            _ = try checkpointer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
    }

    public func epoch() throws(StorageError) -> LeagueEpoch {
        try run("epoch()") {
            try pool.read { db in LeagueEpoch(rawValue: try String.fetchOne(db, sql: "SELECT epoch FROM league") ?? "")
            }
        }
    }

    public func rotateEpoch() throws(StorageError) -> LeagueEpoch {
        try run("rotateEpoch()") {
            let epoch = LeagueEpoch.random()
            try pool.write { db in
                try db.execute(sql: "UPDATE league SET epoch = ? WHERE id = 1", arguments: [epoch.rawValue])
            }
            return epoch
        }
    }

    public func close() throws(StorageError) {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        do {
            try checkpointer.close()
            try pool.close()
        } catch {
            throw SQLiteCoding.storageError(error, operation: "close()", path: path)
        }
    }
}

/// The writer connection's durability settings as SQLite reports them. Value type, `Sendable`.
public struct DurabilitySettings: Hashable, Sendable {
    /// `PRAGMA synchronous`: 2 is FULL.
    public var synchronous: Int
    /// `PRAGMA journal_mode`, lowercase (`wal`).
    public var journalMode: String

    public init(synchronous: Int, journalMode: String) {
        self.synchronous = synchronous
        self.journalMode = journalMode
    }
}
