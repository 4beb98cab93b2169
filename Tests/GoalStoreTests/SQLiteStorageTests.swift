import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// What only the SQLite store has: the file, its durability settings, backups.
@Suite("SQLite storage", .slotted)
struct SQLiteStorageTests {
    /// A league with every kind of change, deletes included, in several batches.
    private func populatedLeague(_ harness: StoreHarness) throws -> LeagueDriver {
        var driver = LeagueDriver()
        let players = (0..<6).map { _ in PlayerID() }
        for (index, id) in players.enumerated() {
            driver.mutate(.createPlayer(id: id, name: "Spieler \(index) Ünal"), by: .alpha)
        }
        try harness.storage.append(driver.takeBatch())
        var matches: [MatchID] = []
        for round in 0..<12 {
            let id = MatchID()
            matches.append(id)
            let home = [players[round % 6], players[(round + 1) % 6]]
            let away = [players[(round + 3) % 6], players[(round + 2) % 6]]
            driver.mutate(
                .createMatch(id: id, homePlayers: home, awayPlayers: away, homeGoals: round % 4, awayGoals: 2),
                by: .beta
            )
            driver.mutate(.adjustGoals(id: id, side: .away, delta: 1), by: .alpha)
            if round % 3 == 0 {
                driver.mutate(.updateMatch(id: id, MatchUpdate(awayPlayers: [players[(round + 4) % 6]])), by: .alpha)
            }
            if round % 4 == 1 { try harness.storage.append(driver.takeBatch()) }
        }
        driver.mutate(.deleteMatch(id: matches[0]), by: .beta)
        let loner = PlayerID()
        driver.mutate(.createPlayer(id: loner, name: "loner"), by: .alpha)
        driver.mutate(.deletePlayer(id: loner), by: .alpha)
        driver.mutate(.renamePlayer(id: players[2], name: "SPIELER 2 ünal"), by: .beta)  // key unchanged: not a clash
        driver.mutate(.deletePlayer(id: players[0]), by: .beta)  // player_in_use: a rejection
        try harness.storage.append(driver.takeBatch())
        return driver
    }

    @Test("reopening after close recovers exactly the state the engine produced")
    func reopenRecoversExactly() throws {
        let harness = try StoreHarness(.sqlite)
        let driver = try populatedLeague(harness)
        try harness.reopen()
        let league = try harness.storage.recover()
        #expect(league.state == driver.state)
        #expect(league.state.rankings() == driver.state.rankings())
        #expect(league.headDigest == driver.digest)
        #expect(league.state.player(withNameKey: PlayerName.key(for: "spieler 2 ünal")) != nil)
    }

    @Test("synchronous is FULL and the journal is WAL")
    func durabilitySettings() throws {
        let harness = try StoreHarness(.sqlite)
        let storage = try #require(harness.storage as? SQLiteLeagueStorage)
        #expect(try storage.durabilitySettings() == DurabilitySettings(synchronous: 2, journalMode: "wal"))
        try harness.reopen()
        let reopened = try #require(harness.storage as? SQLiteLeagueStorage)
        #expect(try reopened.durabilitySettings().synchronous == 2)
        try reopened.checkpoint()
    }

    @Test("the database file and its WAL are created 0600")
    func fileMode() throws {
        let harness = try StoreHarness(.sqlite)
        _ = try populatedLeague(harness)
        for path in [harness.databasePath, harness.databasePath + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(path)")
        }
    }

    @Test("backup, validate, restore: the restored league is the backup's, with a new epoch")
    func backupAndRestore() throws {
        let harness = try StoreHarness(.sqlite)
        var driver = try populatedLeague(harness)
        let storage = try #require(harness.storage as? SQLiteLeagueStorage)
        let atBackup = driver.state
        let backupPath = harness.directory.appendingPathComponent("backup.sqlite").path
        try storage.backup(to: backupPath)
        let mode = try FileManager.default.attributesOfItem(atPath: backupPath)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try #require(throws: StorageError.self) { try storage.backup(to: backupPath) }.code == .fileAccess)

        let summary = try SQLiteLeagueStorage.validateBackup(at: backupPath)
        #expect(summary.head == atBackup.revision)
        #expect(summary.epoch == (try storage.epoch()))

        // The live database moves on, then is replaced by the backup.
        driver.mutate(.createPlayer(id: PlayerID(), name: "after the backup"), by: .alpha)
        try storage.append(driver.takeBatch())
        let oldEpoch = try storage.epoch()
        try storage.close()
        let restored = try SQLiteLeagueStorage.restore(backupAt: backupPath, into: harness.databasePath)
        #expect(restored.head == atBackup.revision)
        #expect(restored.epoch != oldEpoch)

        try harness.reopen()
        let league = try harness.storage.recover()
        #expect(league.state == atBackup)
        #expect(league.epoch == restored.epoch)
        #expect(try (harness.storage as? SQLiteLeagueStorage)?.durabilitySettings().synchronous == 2)
    }

    @Test("a file that is not a database is refused with a clear error")
    func notADatabase() throws {
        let harness = try StoreHarness(.sqlite)
        let path = harness.directory.appendingPathComponent("garbage.sqlite").path
        try Data(String(repeating: "this is not an SQLite database. ", count: 200).utf8).write(
            to: URL(fileURLWithPath: path)
        )
        let openError = try #require(throws: StorageError.self) { try SQLiteLeagueStorage(path: path) }
        #expect(openError.code == .notADatabase)
        #expect(openError.description.contains(path))
        let validateError = try #require(throws: StorageError.self) { try SQLiteLeagueStorage.validateBackup(at: path) }
        #expect(validateError.code == .notADatabase)
        let missing = try #require(throws: StorageError.self) {
            try SQLiteLeagueStorage.validateBackup(at: path + ".missing")
        }
        #expect(missing.code == .fileAccess)
    }

    @Test("a corrupt backup is refused before it is swapped in")
    func corruptBackupRefused() throws {
        let harness = try StoreHarness(.sqlite)
        _ = try populatedLeague(harness)
        let storage = try #require(harness.storage as? SQLiteLeagueStorage)
        let backupPath = harness.directory.appendingPathComponent("backup.sqlite").path
        try storage.backup(to: backupPath)
        let liveBefore = try storage.recover()

        // Overwrite the middle of every page after the first with garbage.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: backupPath)))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        var page = pageSize
        while page + pageSize <= bytes.count {
            for offset in (page + 100)..<(page + 300) { bytes[offset] = 0xA5 }
            page += pageSize
        }
        try Data(bytes).write(to: URL(fileURLWithPath: backupPath))

        let error = try #require(throws: StorageError.self) { try SQLiteLeagueStorage.validateBackup(at: backupPath) }
        #expect([StorageError.Code.corrupt, .notADatabase, .inconsistent].contains(error.code), "\(error)")
        try storage.close()
        #expect(throws: StorageError.self) {
            try SQLiteLeagueStorage.restore(backupAt: backupPath, into: harness.databasePath)
        }
        try harness.reopen()
        #expect(try harness.storage.recover() == liveBefore)
    }
}
