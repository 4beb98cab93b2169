import Foundation
import GRDB
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalStore

/// The exactly-once table's bound as the stores see it (issue 14 point 10): `lastUsed` survives a restart, and
/// `StorageBatch.forgottenClients` deletes records before the batch's own records are written.
@Suite("LeagueStorage: forgetting client records", .slotted)
struct ClientRecordStorageTests {
    @Test(
        "lastUsed round trips; a forgotten record is deleted; forgotten and seen again in one batch, the new one stays",
        arguments: StorageKind.allCases
    )
    func forgottenRecordsAreDeleted(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        var driver = LeagueDriver()
        let gamma = ClientInstanceID("gamma-instance")!
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        driver.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        driver.mutate(.createPlayer(id: PlayerID(), name: "cy"), by: gamma)
        try harness.storage.append(driver.takeBatch())
        try harness.reopen()
        let before = try harness.storage.recover().state
        #expect(before.clientRecord(for: .beta)?.lastUsed == LeagueDriver.time(of: 2))
        #expect(before == driver.state)

        // alpha (used at r1) and beta (r2) are forgotten; alpha comes back in the same batch, gamma is untouched.
        #expect(Set(driver.forgetClientRecords(usedBefore: LeagueDriver.time(of: 3))) == [.alpha, .beta])
        driver.mutate(.createPlayer(id: PlayerID(), name: "dee"), by: .alpha)
        let batch = driver.takeBatch()
        #expect(Set(batch.forgottenClients) == [.alpha, .beta])
        #expect(batch.clientRecords.map(\.instance) == [.alpha])
        try harness.storage.append(batch)
        try harness.reopen()

        let after = try harness.storage.recover().state
        #expect(after.clientRecord(for: .beta) == nil)
        #expect(after.clientRecord(for: .alpha)?.lastSeq == 1, "a new record: the forgotten one's seq 1 is gone")
        #expect(after.clientRecord(for: .alpha)?.lastUsed == LeagueDriver.time(of: 4))
        #expect(after.clientRecord(for: gamma)?.lastUsed == LeagueDriver.time(of: 3))
        #expect(after == driver.state)
        #expect(after.clientRecordCount == 2)
    }

    @Test("a database from before last_used gets its records stamped with the upgrade time")
    func upgradeStampsExistingRecords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("goalstore-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only; a leftover is harmless
        let path = directory.appendingPathComponent("league.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteSchema.migrator.migrate(queue, upTo: "v1-tokens")
            try queue.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO client_records (instance, last_seq, results) VALUES ('old-instance', 3, CAST('[]' AS BLOB))"
                )
            }
        }
        let upgradeStart = Int64(Date().timeIntervalSince1970 * 1000)
        let storage = try SQLiteLeagueStorage(path: path)
        defer { try? storage.close() }  // the test's assertions are made; a failed close changes nothing
        let upgradeEnd = Int64(Date().timeIntervalSince1970 * 1000)
        let record = try #require(try storage.recover().state.clientRecord(for: ClientInstanceID("old-instance")!))
        #expect(record.lastSeq == 3)
        #expect((upgradeStart...upgradeEnd).contains(record.lastUsed.millisecondsSince1970))
    }
}
