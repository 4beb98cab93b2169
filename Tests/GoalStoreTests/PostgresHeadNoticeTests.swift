import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOConcurrencyHelpers
import Testing

@testable import GoalPostgres

/// The commit notification's payload (`PostgresHeadNotice`): a batch written into it reads back as that batch, and
/// anything it cannot carry or read leaves the follower to read the store.
@Suite("PostgreSQL store: the batch in its commit notification", .slotted)
struct PostgresHeadNoticeTests {
    /// The body `goald_append` would get for `batch`, its results encoded as the append call encodes them.
    private func noticeBody(of batch: StorageBatch) -> String? {
        PostgresHeadNotice.body(
            of: batch,
            encodedResults: batch.clientRecords.map { ClientResultsCoding.encode($0.results) }
        )
    }

    @Test("a batch's body, after goald_append's header, reads back as exactly that batch on the head it names")
    func bodyReadsBack() throws {
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        let first = driver.takeBatch()
        let ada = try #require(driver.state.allPlayers.first)
        driver.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        driver.mutate(.renamePlayer(id: ada.id, name: "ada lovelace"), by: .alpha)
        driver.mutate(.renamePlayer(id: PlayerID(), name: "nobody"), by: .beta)  // rejected: recorded, not committed
        let batch = driver.takeBatch()
        #expect(batch.commits.count == 2 && batch.clientRecords.count == 2)

        let body = try #require(noticeBody(of: batch))
        let notice = try #require(PostgresHeadNotice.notice(from: "7 6 \(first.commits.count)\n" + body))
        #expect(notice.version == 7)
        let written = try #require(notice.written)
        #expect(written.base == StoreHead(revision: 1, version: 6))
        #expect(written.changes.head == StoreHead(revision: 3, version: 7))
        #expect(written.changes.commits == batch.commits, "the same changesets with their exact frames")
        #expect(written.changes.clientRecords == batch.clientRecords)
    }

    @Test("a batch that does not fit in a notification, or names an instance with a separator in it, has no body")
    func bodiesItCannotCarry() throws {
        var large = LeagueDriver()
        for index in 0..<40 { large.mutate(.createPlayer(id: PlayerID(), name: "player \(index)"), by: .alpha) }
        #expect(noticeBody(of: large.takeBatch()) == nil)

        var odd = LeagueDriver()
        odd.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: try #require(ClientInstanceID("two words")))
        #expect(noticeBody(of: odd.takeBatch()) == nil)
    }

    @Test("a version alone, or a header with a body this node cannot read, only rings; anything else is no notice")
    func payloadsThatOnlyRing() throws {
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        let body = try #require(noticeBody(of: driver.takeBatch()))

        #expect(PostgresHeadNotice.notice(from: "12") == HeadNotice(version: 12), "v4's payload, and imports")
        #expect(PostgresHeadNotice.notice(from: "3 2 5\n" + body) == HeadNotice(version: 3), "revision 1 after 5")
        #expect(PostgresHeadNotice.notice(from: "3 2 0\nx what\n") == HeadNotice(version: 3))
        #expect(PostgresHeadNotice.notice(from: "3 2 0\nc 1 {\"not\":\"a changeset\"}\n") == HeadNotice(version: 3))
        #expect(
            PostgresHeadNotice.notice(from: "3 2 0\n")
                == HeadNotice(
                    version: 3,
                    written: HeadNotice.Written(
                        base: StoreHead(revision: 0, version: 2),
                        changes: ForeignChanges(
                            commits: [],
                            clientRecords: [],
                            head: StoreHead(revision: 0, version: 3)
                        )
                    )
                ),
            "a batch that only forgot records"
        )
        #expect(PostgresHeadNotice.notice(from: "presence") == nil)
        #expect(PostgresHeadNotice.notice(from: "") == nil)
    }
}

/// The same on a real database: what another store's notification carries is what reading the store brings.
@Suite(
    "PostgreSQL store: notifications between stores",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresHeadNoticeDatabaseTests {
    @Test("another store's notice carries its batch exactly as a read after it; a batch too large only rings")
    func noticeEqualsRead() async throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        let store = try #require(harness.storage as? PostgresLeagueStorage)
        let follower = try PostgresLeagueStorage(configuration: database)
        defer { try? follower.close() }  // cleanup only
        let heard = NIOLockedValueBox<[HeadNotice?]>([])
        follower.watchHead { notice in heard.withLockedValue { $0.append(notice) } }
        // nil: connected. Generous: the listener is a task on the cooperative pool, which busy parallel tests share.
        try await pollUntil("the follower listens", timeout: .seconds(60)) { !heard.withLockedValue(\.isEmpty) }

        var writer = LeagueDriver()
        writer.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        writer.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        let base = StoreHead(revision: 0, version: 0)
        let head = try store.append(writer.takeBatch(), onto: base) { _ throws(StorageError) in
            throw StorageError.inconsistent("nobody else writes here")
        }
        try await pollUntil("the notice") { heard.withLockedValue(\.count) == 2 }
        let notice = try #require(heard.withLockedValue(\.last) ?? nil)
        #expect(notice.version == head.version)
        let written = try #require(notice.written, "two small commits fit")
        #expect(written.base == base)
        #expect(written.changes == (try follower.changes(after: base)))

        for index in 0..<40 { writer.mutate(.createPlayer(id: PlayerID(), name: "player \(index)"), by: .alpha) }
        let later = try store.append(writer.takeBatch(), onto: head) { _ throws(StorageError) in
            throw StorageError.inconsistent("nobody else writes here")
        }
        try await pollUntil("the second notice") { heard.withLockedValue(\.count) == 3 }
        #expect(heard.withLockedValue(\.last) == HeadNotice(version: later.version))
    }
}
