import GoalModel
import GoalStore
import Testing

/// Retention, part of the one conformance suite: both stores prune alike and never touch the client table.
extension StorageConformanceTests {
    @Test("pruning by count keeps the client table and reports the oldest revision", arguments: StorageKind.allCases)
    func pruneByCount(kind: StorageKind) throws {
        let harness = try StoreHarness(kind, retention: RetentionPolicy(maximumChangesets: 10, chunkSize: 3))
        var driver = LeagueDriver()
        for index in 1...25 { driver.mutate(.createPlayer(id: PlayerID(), name: "p\(index)"), by: .alpha) }
        driver.mutate(.deletePlayer(id: PlayerID()), by: .beta)  // not_found: a record, no commit
        try harness.storage.append(driver.takeBatch())

        let report = try harness.storage.prune(now: LeagueDriver.time(of: 25))
        #expect(report == PruneReport(deleted: 15, oldestRetainedRevision: 16))
        #expect(try harness.storage.prune(now: LeagueDriver.time(of: 25)).deleted == 0)

        try harness.reopen()
        let league = try harness.storage.recover()
        #expect(league.state == driver.state)
        #expect(league.state.allClientRecords.count == 2)
        #expect(league.oldestRetainedRevision == 16)
        let bounds = try harness.storage.logBounds()
        #expect(bounds.backlogCovers(since: 14) == false)
        #expect(bounds.backlogCovers(since: 15) && bounds.backlogCovers(since: 25))
        #expect(bounds.backlogCovers(since: 26) == false)
        let error = try #require(throws: StorageError.self) {
            try harness.storage.backlog(after: 14, upTo: 25, limit: 5)
        }
        #expect(error.code == .backlogPruned)
        #expect(try harness.storage.backlog(after: 15, upTo: 25, limit: 50).map(\.revision) == Array(16...25))
    }

    @Test("pruning by age, down to an empty log", arguments: StorageKind.allCases)
    func pruneByAge(kind: StorageKind) throws {
        let harness = try StoreHarness(kind, retention: RetentionPolicy(maximumAge: .seconds(10), chunkSize: 4))
        var driver = LeagueDriver()
        for index in 1...25 { driver.mutate(.createPlayer(id: PlayerID(), name: "p\(index)"), by: .alpha) }
        try harness.storage.append(driver.takeBatch())

        // Revision R was committed at R seconds: at time(25) a 10 s limit keeps revisions 15…25.
        #expect(
            try harness.storage.prune(now: LeagueDriver.time(of: 25))
                == PruneReport(deleted: 14, oldestRetainedRevision: 15)
        )
        #expect(
            try harness.storage.prune(now: LeagueDriver.time(of: 1_000))
                == PruneReport(deleted: 11, oldestRetainedRevision: nil)
        )

        let bounds = try harness.storage.logBounds()
        #expect(bounds.head == 25 && bounds.headDigest == driver.digest)
        #expect(bounds.backlogCovers(since: 25) && !bounds.backlogCovers(since: 24))
        #expect(try harness.storage.backlog(after: 25, upTo: 25, limit: 10).isEmpty)
        #expect(throws: StorageError.self) { try harness.storage.backlog(after: 20, upTo: 25, limit: 10) }
        #expect(try harness.storage.recover().state == driver.state)

        driver.mutate(.createPlayer(id: PlayerID(), name: "late"), by: .beta)
        try harness.storage.append(driver.takeBatch())
        #expect(try harness.storage.logBounds().oldestRetainedRevision == 26)
        #expect(try harness.storage.backlog(after: 25, upTo: 26, limit: 10).map(\.revision) == [26])
    }
}
