import Foundation
import GRDB
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalStore

/// What only the SQLite catalog has: a file per league beside the home database, owner-only, removed with its
/// league; a crash's leftovers; and a database made before leagues existed, upgraded with its data intact.
@Suite("SQLite league files", .slotted)
struct SQLiteLeagueFilesTests {
    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func office() throws -> LeagueInfo {
        LeagueInfo(
            slug: try LeagueSlug(validating: "office"),
            name: try PlayerName(validating: "Office"),
            created: Timestamp(millisecondsSince1970: 1_000)
        )
    }

    @Test("a league is <dir>/leagues/<slug>.sqlite (dir 0700, file 0600); delete removes it with its -wal and -shm")
    func filesCreatedAndRemoved() throws {
        let harness = try StoreHarness(.sqlite)
        let store = try #require(harness.storage as? SQLiteLeagueStorage)
        let office = try office()
        let path = store.leaguePath(office.slug)
        #expect(store.leaguesDirectory == harness.directory.appendingPathComponent("leagues").path)
        #expect(path == store.leaguesDirectory + "/office.sqlite")
        #expect(!exists(store.leaguesDirectory))

        try store.createLeague(office)
        #expect(try permissions(store.leaguesDirectory) == 0o700)
        #expect(try permissions(path) == 0o600)
        let league = try store.openLeague(office.slug)
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ana"), by: .alpha)
        try league.append(driver.takeBatch())
        #expect(exists(path + "-wal") && exists(path + "-shm"))
        #expect(try permissions(path + "-wal") == 0o600)
        try league.close()

        try store.deleteLeague(office.slug)
        #expect(!exists(path) && !exists(path + "-wal") && !exists(path + "-shm"))
        #expect(exists(harness.databasePath))
    }

    @Test("a file left without a row (a create that crashed) is replaced by the next create of its slug")
    func leftoverFileReplaced() throws {
        let harness = try StoreHarness(.sqlite)
        let store = try #require(harness.storage as? SQLiteLeagueStorage)
        let office = try office()
        try FileManager.default.createDirectory(atPath: store.leaguesDirectory, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: store.leaguePath(office.slug)))
        try Data("stale wal".utf8).write(to: URL(fileURLWithPath: store.leaguePath(office.slug) + "-wal"))
        #expect(try store.league(office.slug) == nil)

        try store.createLeague(office)
        let league = try store.openLeague(office.slug)
        defer { try? league.close() }  // cleanup only
        #expect(try league.recover().head == 0)
    }

    @Test("a league whose file is gone is an error naming the file, never a new empty league")
    func missingFileRefused() throws {
        let harness = try StoreHarness(.sqlite)
        let store = try #require(harness.storage as? SQLiteLeagueStorage)
        let office = try office()
        try store.createLeague(office)
        try FileManager.default.removeItem(atPath: store.leaguePath(office.slug))
        let error = try #require(throws: StorageError.self) { _ = try store.openLeague(office.slug) }
        #expect(error.code == .fileAccess)
        #expect(error.description.contains(store.leaguePath(office.slug)))
        #expect(!exists(store.leaguePath(office.slug)))
    }

    @Test(
        "a database made before leagues keeps its epoch, head, digest, log and tokens; its tokens are of every league"
    )
    func upgradeKeepsData() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goalstore-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only
        let path = directory.appendingPathComponent("goald.sqlite").path

        // The schema as the goald before leagues left it: every migration up to v3.
        var driver = LeagueDriver()
        for name in ["ana", "ben"] { driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha) }
        let old = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: "v3-changeset-entities")
        let oldEpoch = try old.write { db in
            try SQLiteWriter(db).append(driver.takeBatch())
            try db.execute(
                sql: "INSERT INTO tokens (id, name, role, secret_hash, created, revoked) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [UUID().uuidString.lowercased(), "admin", "admin", Data(testHash(7)), 5, nil]
            )
            return try String.fetchOne(db, sql: "SELECT epoch FROM league") ?? ""
        }
        #expect(try old.read { db in try db.tableExists("leagues") } == false)
        try old.close()

        let store = try SQLiteLeagueStorage(path: path)
        defer { try? store.close() }  // cleanup only
        let league = try store.recover()
        #expect(league.epoch.rawValue == oldEpoch)
        #expect(league.head == 2 && league.headDigest == driver.digest)
        #expect(try store.backlog(after: 0, upTo: 2, limit: 10).map(\.revision) == [1, 2])
        let admin = try #require(try store.token(secretHash: testHash(7)))
        #expect(admin.name == "admin" && admin.role == .admin && admin.leagues.isEmpty && admin.isOperator)
        #expect(try store.leagues().map(\.slug) == [.default])
        #expect(try store.leagues().first?.name.value == LeagueInfo.defaultName)
    }
}
