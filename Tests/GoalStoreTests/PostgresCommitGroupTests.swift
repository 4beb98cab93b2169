import Dispatch
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalPostgres

/// Group commit across leagues (`PostgresCommitGroup`, `PostgresAppendRound`): several leagues' batches in one
/// statement on one connection, each written to its own league, a refusal or an error confined to its league.
@Suite(
    "PostgreSQL store: several leagues' batches in one statement",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct PostgresCommitGroupTests {
    /// A node's home store (the default league) and two league stores it opened, plus another node's home store.
    private struct Node {
        let harness: StoreHarness
        let home: PostgresLeagueStorage
        let other: PostgresLeagueStorage
        let north: PostgresLeagueStorage
        let south: PostgresLeagueStorage

        init() throws {
            harness = try StoreHarness(.postgres)
            home = try #require(harness.storage as? PostgresLeagueStorage)
            other = try PostgresLeagueStorage(configuration: try #require(harness.postgresDatabase))
            north = try Self.open("north", in: home)
            south = try Self.open("south", in: home)
        }

        static func open(_ name: String, in home: PostgresLeagueStorage) throws -> PostgresLeagueStorage {
            let slug = try LeagueSlug(validating: name)
            try home.createLeague(
                LeagueInfo(slug: slug, name: try PlayerName(validating: name), created: .init(millisecondsSince1970: 0))
            )
            return try home.openLeagueStore(slug)
        }

        func close() {
            for store in [north, south, other] { try? store.close() }  // cleanup only
        }

        var group: PostgresCommitGroup { home.shared.commits }

        /// League north opened on the other node, which commits one player named `name` there first.
        func northOnTheOtherNode(creating name: String) throws -> PostgresLeagueStorage {
            let store = try other.openLeagueStore(try LeagueSlug(validating: "north"))
            var driver = LeagueDriver()
            driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .beta)
            try store.append(driver.takeBatch())
            return store
        }

        /// A call creating one player named `name`, decided on the empty league.
        static func entry(_ store: PostgresLeagueStorage, creating name: String) -> PostgresAppendRound.Entry {
            var driver = LeagueDriver()
            driver.mutate(.createPlayer(id: PlayerID(), name: name), by: .alpha)
            let call = PostgresAppendCall(driver.takeBatch(), onto: StoreHead(revision: 0, version: 0))
            return PostgresAppendRound.Entry(call: call, namespace: store.configuration.namespace)
        }

        /// The names of the players `store` holds.
        static func players(_ store: PostgresLeagueStorage) throws -> [String] {
            try store.recover().state.allPlayers.map(\.name).sorted()
        }
    }

    @Test("one statement writes the default league's and two leagues' batches, each to its own league")
    func oneRoundWritesEachLeague() throws {
        let node = try Node()
        defer { node.close() }
        let entries = [
            Node.entry(node.home, creating: "ada"), Node.entry(node.north, creating: "bea"),
            Node.entry(node.south, creating: "cid"),
        ]
        let results = node.group.runRound(entries)
        #expect(results.count == 3)
        for result in results {
            guard case .success(.appended(let head)) = result else {
                Issue.record("not appended: \(result)")
                continue
            }
            #expect(head == StoreHead(revision: 1, version: 1))
        }
        #expect(try Node.players(node.home) == ["ada"])
        #expect(try Node.players(node.north) == ["bea"])
        #expect(try Node.players(node.south) == ["cid"])
        #expect(try node.north.logBounds().head == 1 && node.south.logBounds().head == 1)
    }

    @Test("a call decided on a head another node moved past is refused with what it wrote; the others are written")
    func aRefusalStaysInItsLeague() throws {
        let node = try Node()
        defer { node.close() }
        let northOnOther = try node.northOnTheOtherNode(creating: "dan")
        defer { try? northOnOther.close() }  // cleanup only

        let results = node.group.runRound([
            Node.entry(node.home, creating: "ada"), Node.entry(node.north, creating: "bea"),
            Node.entry(node.south, creating: "cid"),
        ])
        guard case .success(.moved(let changes)) = results[1] else {
            Issue.record("north's call was not refused: \(results[1])")
            return
        }
        #expect(changes.commits.map(\.revision) == [1], "what the other node wrote first")
        #expect(try Node.players(node.north) == ["dan"], "nothing of the refused call was written")
        #expect(try Node.players(node.home) == ["ada"])
        #expect(try Node.players(node.south) == ["cid"])
    }

    @Test("an error in one league's call fails that call only: the round is run again call by call")
    func anErrorStaysInItsLeague() throws {
        let node = try Node()
        defer { node.close() }
        let gone = try Node.open("gone", in: node.home)
        defer { try? gone.close() }  // cleanup only
        try node.home.deleteLeague(try LeagueSlug(validating: "gone"))  // its schema and function are dropped

        let results = node.group.runRound([
            Node.entry(node.home, creating: "ada"), Node.entry(gone, creating: "bea"),
            Node.entry(node.south, creating: "cid"),
        ])
        guard case .failure = results[1] else {
            Issue.record("the dropped league's call did not fail: \(results[1])")
            return
        }
        for index in [0, 2] {
            guard case .success(.appended) = results[index] else {
                Issue.record("call \(index) was not written: \(results[index])")
                continue
            }
        }
        #expect(try Node.players(node.home) == ["ada"])
        #expect(try Node.players(node.south) == ["cid"])
    }

    @Test("three leagues writing at once all land through the group, every call counted once")
    func concurrentLeaguesAllLand() async throws {
        let node = try Node()
        defer { node.close() }
        let stores = [node.home, node.north, node.south]
        let batches = 20
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (index, store) in stores.enumerated() {
                tasks.addTask {
                    try await onOwnThread {
                        var driver = LeagueDriver()
                        var head = StoreHead(revision: 0, version: 0)
                        for number in 0..<batches {
                            driver.mutate(.createPlayer(id: PlayerID(), name: "p\(index)-\(number)"), by: .alpha)
                            head = try store.append(driver.takeBatch(), onto: head) { _ throws(StorageError) in
                                throw StorageError.inconsistent("nobody else writes these leagues")
                            }
                        }
                    }
                }
            }
            try await tasks.waitForAll()
        }
        for store in stores { #expect(try store.logBounds().head == Revision(batches)) }
        let statistics = node.group.statistics
        #expect(statistics.calls == 3 * batches)
        #expect(statistics.rounds >= 1 && statistics.rounds <= statistics.calls)
    }

    @Test("a league another node wrote first stays off the group for a while")
    func aContendedLeagueWritesAlone() throws {
        let node = try Node()
        defer { node.close() }
        let northOnOther = try node.northOnTheOtherNode(creating: "dan")
        defer { try? northOnOther.close() }  // cleanup only

        var ours = LeagueDriver()
        ours.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .alpha)
        let before = node.group.statistics.calls
        var head = try node.north.append(ours.takeBatch(), onto: StoreHead(revision: 0, version: 0)) {
            changes throws(StorageError) in
            var again = LeagueDriver(recovered: try node.north.recover())
            again.mutate(.createPlayer(id: PlayerID(), name: "bea"), by: .alpha)
            #expect(changes.commits.map(\.revision) == [1])
            return again.takeBatch()
        }
        #expect(head.revision == 2)
        #expect(node.group.statistics.calls == before + 1, "the first try went through the group, the retry alone")

        // The other node writes again: within contendedFor, the next write's refused try is made off the group.
        var theirs = LeagueDriver(recovered: try northOnOther.recover())
        theirs.mutate(.createPlayer(id: PlayerID(), name: "eve"), by: .beta)
        try northOnOther.append(theirs.takeBatch())
        var refusals = 0
        var next = LeagueDriver(recovered: try node.north.recover())
        next.mutate(.createPlayer(id: PlayerID(), name: "cid"), by: .alpha)
        let stale = next.takeBatch()
        head = try node.north.append(stale, onto: head) { changes throws(StorageError) in
            refusals += 1
            #expect(changes.commits.map(\.revision) == [3])
            var again = LeagueDriver(recovered: try node.north.recover())
            again.mutate(.createPlayer(id: PlayerID(), name: "cid"), by: .alpha)
            return again.takeBatch()
        }
        #expect(head.revision == 4)
        #expect(refusals == 1)
        #expect(node.group.statistics.calls == before + 1, "within contendedFor of the refusal: off the group")
    }
}
