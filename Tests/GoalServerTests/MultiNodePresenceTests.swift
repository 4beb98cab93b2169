import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOConcurrencyHelpers
import Testing

/// Presence across goald nodes on one PostgreSQL database (issue 20 point 1, "presence spans all nodes"): members
/// of every node reach every node's sessions over `pg_notify`, a node that stops gracefully takes its members
/// with it at once, and a node that falls silent (SIGKILL, a cut network) is dropped with its members when its
/// refreshes stop.
@Suite(
    "presence across goald nodes sharing one PostgreSQL database",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct MultiNodePresenceTests {
    @Test("three nodes: joins and edits cross nodes; a silent node's members leave; a stopped node's leave at once")
    func presenceSpansNodes() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        var limits = ServerLimits()
        limits.presence = PresenceConfiguration(refreshMilliseconds: 300, nodeTimeoutMilliseconds: 1_500)
        var nodes: [TestDaemon] = []
        var buses: [CuttableBus] = []
        do {
            for index in 0..<3 {
                let storage = try PostgresLeagueStorage(configuration: database)
                let bus = CuttableBus(storage)
                buses.append(bus)
                nodes.append(
                    try await TestDaemon.start(
                        storage: storage,
                        limits: limits,
                        seams: DaemonSeams(presenceBus: bus)
                    ) { $0.nodeID = "node-\(index)" }
                )
            }
            try await Self.scenario(nodes, buses)
        } catch {
            for node in nodes { await node.stop() }
            throw error
        }
        for node in nodes { await node.stop() }
    }

    /// Sessions on nodes 0, 1 and 2; node 1 falls silent, node 2 stops.
    ///
    /// Each step waits for a state of a session's presence list (its `presence_state` with every event applied),
    /// never for one event kind: on a starved machine a node's refreshes can reach the others later than the node
    /// timeout, and they then drop its members and list them again with its next payload, so a change can arrive as
    /// a leave and a join instead of an update (`PresenceRegistryTests` drives that expiry with a clock). The list
    /// ends the same either way.
    static func scenario(_ nodes: [TestDaemon], _ buses: [CuttableBus]) async throws {
        let watcher = try await PresenceView.open(nodes[0], token: nodes[0].tokens.viewer)
        let ada = try await TestSession.open(nodes[1], token: nodes[1].tokens.editor, presence: .all)
        let bea = try await TestSession.open(nodes[2], token: nodes[2].tokens.editor2, presence: .all)
        try await watcher.waitUntil("node 0 lists Ada and Bea") {
            $0.member(ada.instance) != nil && $0.member(bea.instance) != nil
        }
        #expect(watcher.members.member(ada.instance)?.node == "node-1")
        #expect(watcher.members.member(bea.instance)?.node == "node-2")

        let match = MatchID()
        try await ada.announce(.editing(match))
        try await watcher.waitUntil("node 0 lists Ada editing") {
            $0.member(ada.instance)?.activity == .editing(match)
        }

        // A session opened on node 2 later gets node 1's member in its presence_state (or right after it).
        let late = try await PresenceView.open(nodes[2], token: nodes[2].tokens.viewer)
        try await late.waitUntil("the late session lists Ada editing") {
            $0.member(ada.instance)?.activity == .editing(match)
        }
        #expect(late.members.member(bea.instance) != nil, "its own node's members too")

        // Node 1 falls silent (as under SIGKILL): its refreshes stop, so the others drop its members for good.
        buses[1].cut()
        try await watcher.waitUntil("node 0 drops Ada") { $0.member(ada.instance) == nil }

        // Node 2 stops gracefully: its goodbye removes its members at once.
        await nodes[2].stop()
        try await watcher.waitUntil("node 0 drops Bea") { $0.member(bea.instance) == nil }
    }
}

/// One session's view of the league's presence: its `presence_state`, then every presence event applied in order.
/// Pings are answered while it waits, so a session that only listens is not taken for a dead peer.
///
/// Not `Sendable`: used by one test task.
final class PresenceView {
    let session: TestSession
    private(set) var members: [PresenceMember] = []

    private init(session: TestSession) { self.session = session }

    /// Opens a session that is listed and asks for presence.
    static func open(_ daemon: TestDaemon, token: String) async throws -> PresenceView {
        PresenceView(session: try await TestSession.open(daemon, token: token, presence: .all))
    }

    /// Applies what the server sends until `condition` holds for the list; gives up after `limit` (a bound on a
    /// hung test, not a timing assertion).
    func waitUntil(
        _ what: String,
        within limit: Duration = .seconds(120),
        _ condition: ([PresenceMember]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition(members) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                Issue.record("\(what): not reached within \(limit); the list: \(members)")
                throw PresenceTestError.missing
            }
            switch try await session.nextAnsweringPings(within: left) {
            case .presenceState(let list): members = list
            case .presence(let event): members.apply(event)
            default: continue
            }
        }
    }
}

extension [PresenceMember] {
    /// The member of the session `instance`, if listed.
    func member(_ instance: ClientInstanceID) -> PresenceMember? {
        first { $0.clientInstance == instance }
    }
}

/// The same scenario without PostgreSQL: three nodes (each its own in-memory store) on one in-process bus, so the
/// relay's logic runs in every plain `swift test`.
@Suite("presence across goald nodes on an in-process bus", .slotted)
struct InProcessPresenceTests {
    @Test("three nodes: joins and edits cross nodes; a silent node's members leave; a stopped node's leave at once")
    func presenceSpansNodes() async throws {
        var limits = ServerLimits()
        limits.presence = PresenceConfiguration(refreshMilliseconds: 300, nodeTimeoutMilliseconds: 1_500)
        let shared = InProcessPresenceBus()
        var nodes: [TestDaemon] = []
        var buses: [CuttableBus] = []
        do {
            for index in 0..<3 {
                let bus = CuttableBus(shared.node())
                buses.append(bus)
                nodes.append(
                    try await TestDaemon.start(limits: limits, seams: DaemonSeams(presenceBus: bus)) {
                        $0.nodeID = "node-\(index)"
                    }
                )
            }
            try await MultiNodePresenceTests.scenario(nodes, buses)
        } catch {
            for node in nodes { await node.stop() }
            throw error
        }
        for node in nodes { await node.stop() }
    }
}

/// A node's presence bus that the test can cut: afterwards the node neither sends nor hears presence, as a node
/// killed with SIGKILL or cut off from the database would.
final class CuttableBus: PresenceBus {
    private let inner: any PresenceBus
    private let isCut = NIOLockedValueBox(false)

    init(_ inner: any PresenceBus) { self.inner = inner }

    func cut() { isCut.withLockedValue { $0 = true } }

    func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) {
        inner.listenPresence { [isCut] payload in
            if !isCut.withLockedValue({ $0 }) { receive(payload) }
        }
    }

    func publishPresence(_ payload: String) {
        if !isCut.withLockedValue({ $0 }) { inner.publishPresence(payload) }
    }

    func stopPresence() async { await inner.stopPresence() }
}
