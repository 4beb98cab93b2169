import GoalModel
import GoalPostgres
@_spi(Testing) import GoalServer
import GoalStore
import GoalTestSlots
@_spi(Testing) import GoalTestSupport
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
                        hooks: DaemonTestHooks(presenceBus: bus)
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
    static func scenario(_ nodes: [TestDaemon], _ buses: [CuttableBus]) async throws {
        let watcher = try await TestSession.open(nodes[0], token: nodes[0].tokens.viewer, presence: .all)
        let ada = try await TestSession.open(nodes[1], token: nodes[1].tokens.editor, presence: .all)
        let bea = try await TestSession.open(nodes[2], token: nodes[2].tokens.editor2, presence: .all)
        let onNode1 = try await watcher.waitFor(.join, instance: ada.instance)
        #expect(onNode1.node == "node-1")
        try await watcher.waitFor(.join, instance: bea.instance)

        let match = MatchID()
        try await ada.announce(.editing(match))
        let edit = try await watcher.waitFor(.update, instance: ada.instance)
        #expect(edit.activity == .editing(match))

        // A session opened on node 2 later gets node 1's member in its presence_state (or right after it).
        let late = try await TestSession.open(nodes[2], token: nodes[2].tokens.viewer, presence: .all)
        guard case .presenceState(var members) = try await late.next() else { throw PresenceTestError.missing }
        // Node 2 may hear of the edit a moment after node 0 did: the list plus the events after it converge.
        while !members.contains(where: { $0.clientInstance == ada.instance && $0.activity == .editing(match) }) {
            if case .presence(let event) = try await late.next() { members.apply(event) }
        }
        #expect(members.contains { $0.clientInstance == bea.instance }, "its own node's members too")

        // Node 1 falls silent (as under SIGKILL): its refreshes stop, so the others drop its members.
        buses[1].cut()
        let gone = try await watcher.waitFor(.leave, instance: ada.instance)
        #expect(gone.node == "node-1")

        // Node 2 stops gracefully: its goodbye removes its members at once.
        await nodes[2].stop()
        try await watcher.waitFor(.leave, instance: bea.instance)
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
                    try await TestDaemon.start(limits: limits, hooks: DaemonTestHooks(presenceBus: bus)) {
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
