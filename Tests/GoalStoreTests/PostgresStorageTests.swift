import Foundation
import GoalModel
import GoalPostgres
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// What only the PostgreSQL store does: several stores (goald nodes) on one database, its URL, its schema.
@Suite(
    "PostgreSQL store",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresStorageTests {
    @Test("two stores on one database: a batch decided on a stale head is refused whole, then fits after catching up")
    func staleHeadIsRefused() throws {
        let harness = try StoreHarness(.postgres)
        let database = try #require(harness.postgresDatabase)
        let other = try PostgresLeagueStorage(configuration: database)
        defer { try? other.close() }  // cleanup only

        var nodeA = LeagueDriver()
        nodeA.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try harness.storage.append(nodeA.takeBatch())

        // Node B decided its batch at revision 0: it does not follow the stored head.
        var nodeB = LeagueDriver()
        nodeB.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        #expect(throws: StorageError.revisionGap(expected: 2, found: 1)) { try other.append(nodeB.takeBatch()) }
        #expect(try other.logBounds().head == 1, "nothing of B's batch was written")

        // B catches up from the store and decides again; now it fits.
        var caughtUp = LeagueDriver(recovered: try other.recover())
        caughtUp.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .beta)
        try other.append(caughtUp.takeBatch())
        let league = try harness.storage.recover()
        #expect(league.head == 2)
        #expect(league.headDigest == caughtUp.digest)
        #expect(league.state == caughtUp.state)
    }

    @Test("opening an existing database again keeps its epoch and league; the schema is made once")
    func reopeningKeepsTheLeague() throws {
        let harness = try StoreHarness(.postgres)
        var driver = LeagueDriver()
        driver.mutate(.createPlayer(id: PlayerID(), name: "ada"), by: .alpha)
        try harness.storage.append(driver.takeBatch())
        let epoch = try harness.storage.epoch()
        try harness.reopen()
        #expect(try harness.storage.epoch() == epoch)
        #expect(try harness.storage.recover().state == driver.state)
    }

    @Test("a store whose server is unreachable fails with the store named and no password")
    func unreachableServer() throws {
        let closedPort = try #require(
            try? PostgresStoreConfiguration(url: "postgres://goald:s3cret@127.0.0.1:1/nowhere")
        )
        #expect {
            _ = try PostgresLeagueStorage(configuration: closedPort)
        } throws: { error in
            let text = "\(error)"
            return text.contains("postgres://goald@127.0.0.1:1/nowhere") && !text.contains("s3cret")
        }
    }
}

/// The store URL, without a server.
@Suite("PostgreSQL store URL", .slotted)
struct PostgresStoreURLTests {
    @Test("a full URL is read; the password never shows")
    func fullURL() throws {
        let configuration = try PostgresStoreConfiguration(
            url: "postgres://league:pw@db.example:6543/goal?sslmode=require"
        )
        #expect(configuration.host == "db.example")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "league")
        #expect(configuration.password == "pw")
        #expect(configuration.database == "goal")
        #expect(configuration.tls == .require)
        #expect(configuration.description == "postgres://league@db.example:6543/goal?sslmode=require")
    }

    @Test(
        "bad URLs are refused with what is wrong",
        arguments: [
            ("mysql://u@h/db", "must start with postgres://"),
            ("postgres://h/db", "names no user"),
            ("postgres://u@h", "names no database"),
            ("postgres://u@h/db?sslmode=allow", "sslmode=allow is not supported"),
            ("postgres://u@h/db?pool=3", "parameter \"pool\" is not supported"),
            ("postgres://u:secret@h:99999/db", "out of range"),
        ]
    )
    func badURLs(url: String, problem: String) {
        #expect {
            _ = try PostgresStoreConfiguration(url: url)
        } throws: { error in
            "\(error)".contains(problem) && !"\(error)".contains("secret")
        }
    }
}
