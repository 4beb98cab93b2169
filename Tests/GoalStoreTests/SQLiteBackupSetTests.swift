import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// A backup of the whole SQLite state (`SQLiteBackupSet`): the home database and every league its catalog lists,
/// written together, validated together and restored together, so no league is lost in a backup and restore.
@Suite("SQLite backup sets", .slotted)
struct SQLiteBackupSetTests {
    private func info(_ slug: String) throws -> LeagueInfo {
        LeagueInfo(
            slug: try LeagueSlug(validating: slug),
            name: try PlayerName(validating: slug.uppercased()),
            created: Timestamp(millisecondsSince1970: 1_000)
        )
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Commits one new player per name to `storage` through the real engine.
    @discardableResult
    private func addPlayers(_ names: [String], to storage: any LeagueStorage) throws -> DurableLeague {
        var driver = LeagueDriver(recovered: try storage.recover())
        for name in names { driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha) }
        try storage.append(driver.takeBatch())
        return try storage.recover()
    }

    /// Runs `body` on a league's own store and closes it.
    @discardableResult
    private func withLeague<T>(
        _ slug: String,
        of home: SQLiteLeagueStorage,
        _ body: (any LeagueStorage) throws -> T
    ) throws -> T {
        let league = try home.openLeague(LeagueSlug(validating: slug))
        defer { try? league.close() }  // cleanup only: the body's reads and writes are done
        return try body(league)
    }

    /// The home store with players in the default league, `office` (3 players) and `a-team` (1 player).
    /// - Returns: Each league as it is now, by slug.
    private func populate(_ home: SQLiteLeagueStorage) throws -> [String: DurableLeague] {
        try home.createLeague(info("office"))
        try home.createLeague(info("a-team"))
        return [
            "default": try addPlayers(["ana", "ben"], to: home),
            "office": try withLeague("office", of: home) { try addPlayers(["cem", "dora", "eli"], to: $0) },
            "a-team": try withLeague("a-team", of: home) { try addPlayers(["fay"], to: $0) },
        ]
    }

    /// Files whose name ends in `.restoring` in the harness's directory and its leagues' directory.
    private func stagingLeftovers(_ harness: StoreHarness) throws -> [String] {
        let directory = harness.directory.path
        let names =
            try FileManager.default.contentsOfDirectory(atPath: directory)
            + ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/leagues")) ?? [])  // may not exist
        return names.filter { $0.contains(".restoring") }
    }

    @Test("backup writes FILE and FILE.leagues/<slug>.sqlite (0700, 0600) for each catalog league, with summaries")
    func backupWritesEveryLeague() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        let live = try populate(home)
        // A league file the catalog does not list (a create that crashed) is not part of the set.
        try SQLiteLeagueStorage(path: home.leaguesDirectory + "/ghost.sqlite").close()
        let file = harness.directory.appendingPathComponent("backup.sqlite").path

        let parts = try home.backupSet(to: file)
        #expect(parts.map(\.slug.rawValue) == ["default", "a-team", "office"])
        #expect(parts.map(\.path) == [file, file + ".leagues/a-team.sqlite", file + ".leagues/office.sqlite"])
        #expect(parts.map(\.summary.players) == [2, 1, 3])
        for part in parts {
            let league = try #require(live[part.slug.rawValue])
            #expect(part.summary.head == league.head, "\(part.slug)")
            #expect(part.summary.headDigest == league.headDigest, "\(part.slug)")
            #expect(part.summary.epoch == league.epoch, "\(part.slug)")
            #expect(try permissions(part.path) == 0o600, "\(part.slug)")
        }
        #expect(try permissions(file + ".leagues") == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file + ".leagues").sorted()
                == ["a-team.sqlite", "office.sqlite"]
        )
        #expect(try SQLiteBackupSet.validate(at: file) == parts)
    }

    @Test("backup refuses when FILE.leagues or FILE exists, and writes nothing")
    func backupRefusesExistingPaths() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        _ = try populate(home)
        let file = harness.directory.appendingPathComponent("backup.sqlite").path
        try FileManager.default.createDirectory(atPath: file + ".leagues", withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file + ".leagues/note"))

        let refused = try #require(throws: StorageError.self) { try home.backupSet(to: file) }
        #expect(refused.code == .fileAccess)
        #expect(refused.description.contains(file + ".leagues"))
        #expect(!exists(file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: file + ".leagues") == ["note"])

        let other = harness.directory.appendingPathComponent("other.sqlite").path
        try Data("taken".utf8).write(to: URL(fileURLWithPath: other))
        #expect(try #require(throws: StorageError.self) { try home.backupSet(to: other) }.code == .fileAccess)
        #expect(!exists(other + ".leagues"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == Data("taken".utf8))
    }

    @Test("a backup that fails on a league (its live file is gone) removes FILE and FILE.leagues it wrote")
    func failedBackupRemovesWhatItWrote() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        _ = try populate(home)
        try FileManager.default.removeItem(atPath: home.leaguePath(try LeagueSlug(validating: "office")))
        let file = harness.directory.appendingPathComponent("backup.sqlite").path

        let error = try #require(throws: StorageError.self) { try home.backupSet(to: file) }
        #expect(error.code == .fileAccess)
        #expect(error.description.contains(home.leaguePath(try LeagueSlug(validating: "office"))))
        #expect(!exists(file) && !exists(file + ".leagues"))
        #expect(!exists(home.leaguePath(try LeagueSlug(validating: "office"))))
    }

    @Test("restore brings back every league of the catalog with its data and a new epoch; unlisted files stay")
    func restoreBringsBackEveryLeague() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        let atBackup = try populate(home)
        let file = harness.directory.appendingPathComponent("backup.sqlite").path
        _ = try home.backupSet(to: file)

        // After the backup: every league moves on, a-team is deleted and a new league appears.
        try addPlayers(["late"], to: home)
        try withLeague("office", of: home) { try addPlayers(["late"], to: $0) }
        try home.deleteLeague(LeagueSlug(validating: "a-team"))
        try home.createLeague(info("later"))
        let officeEpochBefore = try withLeague("office", of: home) { try $0.epoch() }
        try home.close()

        let restoration = try SQLiteBackupSet.restore(from: file, into: harness.databasePath)
        #expect(restoration.restored.map(\.part.slug.rawValue) == ["default", "a-team", "office"])
        #expect(
            restoration.restored.map(\.target) == [
                harness.databasePath, home.leaguePath(try LeagueSlug(validating: "a-team")),
                home.leaguePath(try LeagueSlug(validating: "office")),
            ]
        )
        #expect(restoration.restored.map(\.previousEpoch) == [atBackup["default"]?.epoch, nil, officeEpochBefore])
        #expect(restoration.unlisted == [home.leaguesDirectory + "/later.sqlite"])
        #expect(exists(home.leaguesDirectory + "/later.sqlite"))
        #expect(try stagingLeftovers(harness).isEmpty)

        try harness.reopen()
        let reopened = try #require(harness.storage as? SQLiteLeagueStorage)
        #expect(try reopened.leagues().map(\.slug.rawValue) == ["default", "a-team", "office"])
        for restored in restoration.restored {
            let slug = restored.part.slug.rawValue
            let league =
                slug == "default"
                ? try reopened.recover() : try withLeague(slug, of: reopened) { try $0.recover() }
            let before = try #require(atBackup[slug])
            #expect(league.state == before.state, "\(slug)")
            #expect(league.head == before.head && league.headDigest == before.headDigest, "\(slug)")
            #expect(league.epoch == restored.part.summary.epoch, "\(slug)")
            #expect(league.epoch != before.epoch, "\(slug)")
        }
    }

    @Test("restore with a catalog league's file missing fails before anything in the state changes")
    func restoreWithMissingLeagueFileTouchesNothing() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        _ = try populate(home)
        let file = harness.directory.appendingPathComponent("backup.sqlite").path
        _ = try home.backupSet(to: file)
        try FileManager.default.removeItem(atPath: file + ".leagues/office.sqlite")
        let homeNow = try addPlayers(["late"], to: home)
        let officeNow = try withLeague("office", of: home) { try addPlayers(["late"], to: $0) }
        let aTeamNow = try withLeague("a-team", of: home) { try $0.recover() }
        try home.close()

        let error = try #require(throws: StorageError.self) {
            try SQLiteBackupSet.restore(from: file, into: harness.databasePath)
        }
        #expect(error.code == .fileAccess)
        #expect(error.description.contains(file + ".leagues/office.sqlite"))
        #expect(try stagingLeftovers(harness).isEmpty)

        try harness.reopen()
        let reopened = try #require(harness.storage as? SQLiteLeagueStorage)
        #expect(try reopened.recover() == homeNow)
        #expect(try withLeague("office", of: reopened) { try $0.recover() } == officeNow)
        #expect(try withLeague("a-team", of: reopened) { try $0.recover() } == aTeamNow)
    }

    @Test("a set of the default league alone is FILE alone; it and an old single-file backup restore as before")
    func singleFileBackupsRestore() throws {
        let harness = try StoreHarness(.sqlite)
        let home = try #require(harness.storage as? SQLiteLeagueStorage)
        let atBackup = try addPlayers(["ana", "ben"], to: home)
        let file = harness.directory.appendingPathComponent("set.sqlite").path
        let parts = try home.backupSet(to: file)
        #expect(parts.map(\.slug) == [.default])
        #expect(!exists(file + ".leagues"))
        let old = harness.directory.appendingPathComponent("old.sqlite").path
        try home.backup(to: old)  // what goald wrote before backup sets: FILE only
        try addPlayers(["late"], to: home)
        try home.close()

        for backup in [file, old] {
            let restoration = try SQLiteBackupSet.restore(from: backup, into: harness.databasePath)
            #expect(restoration.restored.map(\.part.slug) == [.default])
            #expect(restoration.unlisted.isEmpty)
            #expect(!exists(home.leaguesDirectory))
            try harness.reopen()
            let league = try harness.storage.recover()
            #expect(league.state == atBackup.state)
            #expect(league.epoch == restoration.restored.first?.part.summary.epoch)
            #expect(league.epoch != atBackup.epoch)
            try harness.storage.close()
        }
    }
}
