import Foundation
import GRDB
import GoalModel
import GoalStore
import GoalTestSupport
import GoalWire
import Testing

/// Entity history, part of the one conformance suite: every store indexes the same revisions per entity, pages
/// them newest first, keeps them across a reopen, forgets them with the log, and (SQLite, PostgreSQL) rebuilds the
/// index from stored frames when upgrading a database made before it existed.
extension StorageConformanceTests {
    /// Two players, a match between them, three goal edits from two instances, a rename: revisions 1…7.
    private func editedLeague(_ harness: StoreHarness, ids: Ids) throws -> LeagueDriver {
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: ids.alice, name: "alice"), by: .alpha, author: "alice")
        driver.mutate(.createPlayer(id: ids.bob, name: "bob"), by: .alpha, author: "alice")
        driver.mutate(
            .createMatch(id: ids.match, homePlayers: [ids.alice], awayPlayers: [ids.bob], homeGoals: 0, awayGoals: 0),
            by: .alpha,
            author: "alice"
        )
        try harness.storage.append(driver.takeBatch())
        driver.mutate(.adjustGoals(id: ids.match, side: .home, delta: 1), by: .beta, author: "bob")
        driver.mutate(.adjustGoals(id: ids.match, side: .away, delta: 2), by: .alpha, author: "alice")
        driver.mutate(.renamePlayer(id: ids.alice, name: "Alicia"), by: .beta, author: "bob")
        driver.mutate(.updateMatch(id: ids.match, MatchUpdate(homeGoals: 3)), by: .beta, author: "bob")
        try harness.storage.append(driver.takeBatch())
        return driver
    }

    @Test(
        "history: newest first, paged with before, ratings left out, the same after a reopen",
        arguments: StorageKind.allCases
    )
    func historyPages(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let ids = Ids()
        let driver = try editedLeague(harness, ids: ids)
        for _ in 0..<2 {
            let first = try harness.storage.history(of: .match(ids.match), before: nil, limit: 3)
            #expect(first.frames.map(\.revision) == [7, 5, 4])
            #expect(first.frames.map(\.bytes) == [7, 5, 4].map { driver.frames[$0] })
            #expect(first.head == 7 && first.oldestRetainedRevision == 1 && first.exists)
            let second = try harness.storage.history(of: .match(ids.match), before: 4, limit: 3)
            #expect(second.frames.map(\.revision) == [3])
            #expect(try harness.storage.history(of: .match(ids.match), before: 3, limit: 3).frames.isEmpty)
            // The match's commits carry alice's rating too; her history is her own writes only.
            #expect(
                try harness.storage.history(of: .player(ids.alice), before: nil, limit: 10).frames.map(\.revision)
                    == [6, 1]
            )
            #expect(
                try harness.storage.history(of: .player(ids.bob), before: nil, limit: 10).frames.map(\.revision)
                    == [2]
            )
            let unknown = try harness.storage.history(of: .player(PlayerID()), before: nil, limit: 10)
            #expect(unknown.frames.isEmpty && !unknown.exists && unknown.head == 7)
            try harness.reopen()
        }
    }

    @Test(
        "history past retention: pruned revisions leave the index with the log; deletions stay listed",
        arguments: StorageKind.allCases
    )
    func historyPastRetention(kind: StorageKind) throws {
        let harness = try StoreHarness(kind, retention: RetentionPolicy(maximumChangesets: 3, chunkSize: 2))
        let ids = Ids()
        var driver = try editedLeague(harness, ids: ids)
        driver.mutate(.deleteMatch(id: ids.match), by: .alpha, author: "alice")
        try harness.storage.append(driver.takeBatch())
        let report = try harness.storage.prune(now: LeagueDriver.time(of: 8))
        #expect(report.oldestRetainedRevision == 6)
        try harness.reopen()
        let match = try harness.storage.history(of: .match(ids.match), before: nil, limit: 10)
        #expect(match.frames.map(\.revision) == [8, 7])
        #expect(match.oldestRetainedRevision == 6 && !match.exists)
        let bob = try harness.storage.history(of: .player(ids.bob), before: nil, limit: 10)
        #expect(bob.frames.isEmpty && bob.exists)
        #expect(
            try harness.storage.history(of: .player(ids.alice), before: nil, limit: 10).frames.map(\.revision) == [6]
        )
        #expect(try harness.storage.history(of: .match(ids.match), before: nil, limit: 0).frames.isEmpty)
    }

    @Test(
        "upgrading a database made before the history index fills it from the stored frames",
        arguments: StorageKind.allCases.filter { $0 != .memory }
    )
    func historyIndexBackfill(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let ids = Ids()
        _ = try editedLeague(harness, ids: ids)
        try harness.storage.close()
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: harness.databasePath)
            try queue.write { db in
                try db.execute(sql: "DROP TABLE changeset_entities")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3-changeset-entities'")
            }
            try queue.close()
        case .postgres:
            let database = try #require(harness.postgresDatabase)
            try PostgresTestServer.execute("DROP TABLE changeset_entities", in: database)
            try PostgresTestServer.execute("DELETE FROM goald_schema WHERE version >= 3", in: database)
        case .memory:
            return
        }
        try harness.reopen()
        #expect(
            try harness.storage.history(of: .match(ids.match), before: nil, limit: 10).frames.map(\.revision)
                == [7, 5, 4, 3]
        )
        #expect(
            try harness.storage.history(of: .player(ids.alice), before: nil, limit: 10).frames.map(\.revision)
                == [6, 1]
        )
    }
}
