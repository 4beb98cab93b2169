import Foundation
import GRDB
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalStore

/// A backup made by an older goald (its migrations a prefix of this goald's) is valid and is brought up to date when
/// it is restored; a backup with a gap in its migrations, or with migrations this goald does not know, is refused.
@Suite("SQLite backups of an older goald", .slotted)
struct SQLiteOlderBackupTests {
    /// A fresh temporary directory; the caller removes it.
    private func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goalstore-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func applied(at path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }  // cleanup only: the rows are read
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    /// A database as the goald before leagues left it (every migration up to v3), with two players and an admin
    /// token. - Returns: Its epoch.
    private func makePreLeagueBackup(at path: String, driver: inout LeagueDriver) throws -> String {
        for name in ["ana", "ben"] { driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha) }
        let old = try DatabaseQueue(path: path)
        defer { try? old.close() }  // cleanup only: the writes are committed
        try SQLiteSchema.migrator.migrate(old, upTo: "v3-changeset-entities")
        return try old.write { db in
            try SQLiteWriter(db).append(driver.takeBatch())
            try db.execute(
                sql: "INSERT INTO tokens (id, name, role, secret_hash, created, revoked) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [UUID().uuidString.lowercased(), "admin", "admin", Data(testHash(7)), 5, nil]
            )
            return try String.fetchOne(db, sql: "SELECT epoch FROM league") ?? ""
        }
    }

    @Test(
        "a pre-league backup validates unchanged; restored: head, players, token of every league, catalog, new epoch"
    )
    func preLeagueBackupRestores() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only
        let backup = directory.appendingPathComponent("old-backup.sqlite").path
        var driver = LeagueDriver()
        let oldEpoch = try makePreLeagueBackup(at: backup, driver: &driver)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: backup))

        let summary = try SQLiteLeagueStorage.validateBackup(at: backup)
        #expect(summary.head == 2 && summary.headDigest == driver.digest)
        #expect(summary.players == 2 && summary.epoch.rawValue == oldEpoch)
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == bytes)
        #expect(try applied(at: backup).last == "v3-changeset-entities")

        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let home = state.appendingPathComponent("goald.sqlite").path
        let restoration = try SQLiteBackupSet.restore(from: backup, into: home)
        #expect(restoration.restored.map(\.part.slug) == [.default] && restoration.unlisted.isEmpty)
        let newEpoch = try #require(restoration.restored.first?.part.summary.epoch)
        #expect(newEpoch.rawValue != oldEpoch)
        #expect(try applied(at: home) == SQLiteSchema.migrator.migrations)

        let store = try SQLiteLeagueStorage(path: home)
        defer { try? store.close() }  // cleanup only
        let league = try store.recover()
        #expect(league.epoch == newEpoch)
        #expect(league.head == 2 && league.headDigest == driver.digest)
        #expect(league.state.allPlayers.map(\.name).sorted() == ["ana", "ben"])
        #expect(try store.leagues().map(\.slug) == [.default])
        let admin = try #require(try store.token(secretHash: testHash(7)))
        #expect(admin.role == .admin && admin.leagues.isEmpty && admin.isOperator)
    }

    @Test("a backup of the first schema (v1, before client_records.last_used) validates and restores up to date")
    func firstSchemaBackupRestores() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only
        let backup = directory.appendingPathComponent("v1-backup.sqlite").path
        let old = try DatabaseQueue(path: backup)
        try SQLiteSchema.migrator.migrate(old, upTo: "v1-tokens")
        try old.close()

        let summary = try SQLiteLeagueStorage.validateBackup(at: backup)
        #expect(summary.head == 0 && summary.players == 0)
        #expect(try applied(at: backup).last == "v1-tokens")
        let home = directory.appendingPathComponent("goald.sqlite").path
        let restored = try SQLiteLeagueStorage.restore(backupAt: backup, into: home)
        #expect(restored.epoch != summary.epoch)
        #expect(try applied(at: home) == SQLiteSchema.migrator.migrations)
    }

    @Test(
        "a migration gap is schemaIncomplete, an unknown migration schemaTooNew; restore leaves the target alone",
        arguments: [
            (
                "DELETE FROM grdb_migrations WHERE identifier = 'v2-client-last-used'",
                StorageError.Code.schemaIncomplete
            ),
            ("INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')", StorageError.Code.schemaTooNew),
        ]
    )
    func gapOrUnknownRefused(edit: String, expected: StorageError.Code) throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only
        let backup = directory.appendingPathComponent("bad-backup.sqlite").path
        let queue = try DatabaseQueue(path: backup)
        try SQLiteSchema.migrator.migrate(queue, upTo: "v3-changeset-entities")
        try queue.write { db in try db.execute(sql: edit) }
        try queue.close()

        let refused = try #require(throws: StorageError.self) { _ = try SQLiteLeagueStorage.validateBackup(at: backup) }
        #expect(refused.code == expected)
        let home = directory.appendingPathComponent("goald.sqlite").path
        let restore = try #require(throws: StorageError.self) {
            _ = try SQLiteBackupSet.restore(from: backup, into: home)
        }
        #expect(restore.code == expected)
        #expect(!FileManager.default.fileExists(atPath: home))
    }
}
