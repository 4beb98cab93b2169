import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import PostgresNIO
import Testing

@testable import GoalPostgres

/// A node's one listening connection (`PostgresChannels`): every league store it opened listens on it, however many,
/// and a lost one is opened again for all of them.
@Suite(
    "PostgreSQL store: one listening connection per node",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresChannelsTests {
    /// A home store with three leagues open, each watching its head and listening for presence, and a second node's
    /// stores of the same leagues to commit from.
    private struct Node {
        let harness: StoreHarness
        let home: PostgresLeagueStorage
        let other: PostgresLeagueStorage
        let leagues: [PostgresLeagueStorage]
        let writers: [PostgresLeagueStorage]
        let heads: [HeardNotifications<HeadNotice>]
        let presence: [HeardNotifications<String>]

        init() throws {
            harness = try StoreHarness(.postgres)
            home = try #require(harness.storage as? PostgresLeagueStorage)
            other = try PostgresLeagueStorage(configuration: try #require(harness.postgresDatabase))
            var leagues: [PostgresLeagueStorage] = []
            var writers: [PostgresLeagueStorage] = []
            for name in ["north", "south", "east-end"] {
                let slug = try LeagueSlug(validating: name)
                try home.createLeague(
                    LeagueInfo(
                        slug: slug,
                        name: try PlayerName(validating: name),
                        created: .init(millisecondsSince1970: 0)
                    )
                )
                leagues.append(try home.openLeagueStore(slug))
                writers.append(try other.openLeagueStore(slug))
            }
            self.leagues = leagues
            self.writers = writers
            heads = leagues.map { _ in HeardNotifications<HeadNotice>() }
            presence = leagues.map { _ in HeardNotifications<String>() }
            for (index, store) in leagues.enumerated() {
                store.watchHead(heads[index].record)
                store.listenPresence(presence[index].record)
            }
        }

        func close() {
            for store in leagues + writers { try? store.close() }  // cleanup only
            try? other.close()  // cleanup only
        }

        /// The sessions of this database that carry `application_name` (run on the other node's connection).
        func sessions(named name: String) throws -> Int {
            try other.reader.withConnection("test") { connection in
                let rows = try connection.run(
                    """
                    SELECT count(*)::BIGINT FROM pg_stat_activity
                    WHERE datname = current_database() AND application_name = \(name)
                    """
                )
                return Int(try #require(rows.first).decode(Int64.self))
            }
        }

        /// Commits one player in league `index` from the other node.
        func commit(in index: Int, name: String) throws {
            var driver = LeagueDriver()
            driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha)
            try writers[index].append(driver.takeBatch())
        }
    }

    @Test("three leagues listening for commits and presence share one listening connection")
    func oneConnectionForEveryLeague() async throws {
        let node = try Node()
        defer { node.close() }
        // Generous: the subscriptions are tasks on the cooperative pool, which busy parallel tests share.
        try await pollUntil("every league listens", timeout: .seconds(60)) {
            node.heads.allSatisfy(\.listening) && node.presence.allSatisfy(\.listening)
        }
        #expect(try node.sessions(named: PostgresChannels.applicationName) == 1)

        for index in node.leagues.indices { try node.commit(in: index, name: "p\(index)") }
        try await pollUntil("each league's commit") { node.heads.allSatisfy { $0.payloads.count == 1 } }
        #expect(node.heads.map { $0.payloads.map(\.version) } == [[1], [1], [1]], "each league heard only its own")
    }

    @Test("a listening connection the server ends is opened again, and every league hears again")
    func reconnectsForEveryLeague() async throws {
        let node = try Node()
        defer { node.close() }
        try await pollUntil("every league listens", timeout: .seconds(60)) { node.heads.allSatisfy(\.listening) }

        let ended = try node.other.reader.withConnection("test") { connection in
            try connection.run(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = \(PostgresChannels.applicationName)
                """
            ).count
        }
        #expect(ended == 1)
        try await pollUntil("every league listens again", timeout: .seconds(60)) {
            node.heads.allSatisfy { $0.starts >= 2 } && node.presence.allSatisfy { $0.starts >= 2 }
        }
        for index in node.leagues.indices { try node.commit(in: index, name: "q\(index)") }
        try await pollUntil("each league's commit after the reconnection") {
            node.heads.allSatisfy { $0.payloads.count == 1 }
        }
        #expect(try node.sessions(named: PostgresChannels.applicationName) == 1)
    }

    @Test("a league store that closes stops hearing; the others go on, on the same connection")
    func closingOneLeagueLeavesTheOthers() async throws {
        let node = try Node()
        defer { node.close() }
        try await pollUntil("every league listens", timeout: .seconds(60)) { node.heads.allSatisfy(\.listening) }
        try node.leagues[0].close()

        try node.commit(in: 0, name: "gone")
        try node.commit(in: 1, name: "here")
        try await pollUntil("the open league's commit") { node.heads[1].payloads.count == 1 }
        // PostgreSQL delivers in commit order on one connection: the closed league's came first, had it been heard.
        #expect(node.heads[0].payloads.isEmpty)
        #expect(try node.sessions(named: PostgresChannels.applicationName) == 1)
    }
}
