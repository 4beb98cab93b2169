import Foundation
import GoalClient
import GoalModel
import GoalPostgres
import GoalReactive
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Logging
import Synchronization
import Testing

/// A `GoalClient` given two goald nodes on one PostgreSQL database (issue 15 point 5): when its node goes away it
/// resumes on the other with the same epoch, revision and digest — a backlog (or nothing to catch up), never a
/// snapshot — and its next mutation is acknowledged there.
///
/// Live sharing between nodes is not what is tested here: node B is started after the commits made on A, so it
/// reads them from the database when it starts, as a node that just joined would.
@Suite(
    "Live: failover between goald nodes on one PostgreSQL database",
    .serialized,
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct LiveFailoverTests {
    static let servers = ["wss://node-a.test", "wss://node-b.test"]

    /// Why a test gave up on node B.
    struct NoWelcome: Error {}

    /// Quiet unless GOALD_TEST_LOG is set (as for `TestDaemon`).
    static let logger: Logger = {
        var logger = Logger(label: "goal.client.failover-test")
        logger.logLevel = ProcessInfo.processInfo.environment["GOALD_TEST_LOG"] != nil ? .debug : .critical
        return logger
    }()

    /// A client for the two servers of `transport`, with a short backoff.
    static func client(_ transport: NodeListTransport, token: String, instance: String) -> GoalClient {
        GoalClient(
            configuration: ClientConfiguration(
                token: token,
                servers: servers,
                backoff: BackoffPolicy(initial: 0.05, maximum: 0.25)
            ),
            transport: transport,
            scheduler: QueueScheduler(name: "goal.failover-test.\(instance)"),
            minter: InMemoryMutationIDMinter(instance: ClientInstanceID(instance)!),
            logger: Self.logger
        )
    }

    /// Submits `action` and waits for its answer.
    static func perform(_ client: GoalClient, _ action: MutationAction, base: Revision) async throws -> MutationAck {
        let answer = Mutex<Result<MutationAck, MutationError>?>(nil)
        client.submit(action, base: base).startWithResult { result in
            answer.withLock { if $0 == nil { $0 = result } }
        }
        try await pollUntil("the answer to \(action)") { answer.withLock { $0 != nil } }
        return try answer.withLock { $0! }.get()
    }

    /// Starts a node over `database` named `node`, on `port` when given.
    static func startNode(
        _ database: PostgresStoreConfiguration,
        node: String,
        on port: PortReservation? = nil
    ) async throws -> TestDaemon {
        let storage = try PostgresLeagueStorage(configuration: database)
        guard let port else { return try await TestDaemon.start(storage: storage) { $0.nodeID = node } }
        return try await TestDaemon.start(on: port, storage: storage) { $0.nodeID = node }
    }

    @Test(
        "a lost node: the client resumes on the next one (same epoch and digest, no snapshot), which acks its next mutation"
    )
    func aLostConnectionMovesToTheNextNode() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        // Node A's port is reserved for the whole test: the client dials it again after A stopped, and must be
        // refused there, not welcomed by another test's daemon (same test CA, same token secrets) given the port.
        let portA = try PortReservation()
        defer { withExtendedLifetime(portA) {} }
        let nodeA = try await Self.startNode(database, node: "node-a", on: portA)
        var nodeB: TestDaemon?
        let transport = try NodeListTransport(ports: [nodeA.port, nil])
        let client = Self.client(transport, token: nodeA.tokens.editor, instance: "failover-lost")
        do {
            client.start()
            try await pollUntil("live on node A") { client.status.value.isLive }
            #expect(
                client.server.value
                    == ServerLocation(index: 0, name: Self.servers[0], node: "node-a", protocolVersion: 2)
            )
            for (offset, name) in ["Ada", "Bea", "Cy"].enumerated() {
                let ack = try await Self.perform(
                    client,
                    .createPlayer(id: PlayerID(), name: name),
                    base: Revision(offset)
                )
                #expect(ack.revision == Revision(offset + 1))
            }
            try await pollUntil("the replica at r3") { client.replica.value.revision == 3 }
            let before = client.replica.value

            // B joins after the commits (it reads them from the database), then A goes away.
            let started = try await Self.startNode(database, node: "node-b")
            nodeB = started
            try transport.setPort(started.port, for: 1)
            await nodeA.stop()

            try await pollUntil("live on node B") {
                client.status.value.isLive && client.server.value.node == "node-b"
            }
            #expect(
                client.server.value
                    == ServerLocation(index: 1, name: Self.servers[1], node: "node-b", protocolVersion: 2)
            )
            let onB = transport.received.filter { $0.server == 1 }.map(\.message)
            guard case .welcome(let welcome) = onB.first else {
                Issue.record("node B did not answer with a welcome first: \(onB)")
                throw NoWelcome()
            }
            #expect(welcome.mode != .snapshot, "resumed, not re-sent the league")
            #expect(welcome.mode == .live, "nothing to catch up: the client held the head")
            #expect(welcome.epoch == before.epoch)
            #expect(welcome.head == 3)
            #expect(welcome.headDigest == before.digest)
            #expect(welcome.node == "node-b")
            #expect(!onB.contains { if case .snapshotBegin = $0 { true } else { false } })
            #expect(client.replica.value == before, "the replica was kept as it was")

            let ack = try await Self.perform(client, .createPlayer(id: PlayerID(), name: "Dee"), base: 3)
            #expect(ack.revision == 4)
            #expect(
                transport.received.contains { $0.server == 1 && $0.message == .ack(seq: 4, revision: 4, noop: false) }
            )
            try await pollUntil("the replica at r4") { client.replica.value.revision == 4 }
            #expect(try started.storage.recover().head == 4)
        } catch {
            client.stop()
            await nodeA.stop()
            await nodeB?.stop()
            throw error
        }
        client.stop()
        await nodeB?.stop()
    }

    @Test("a node that is down at connect: the client goes to the next one, which sends the backlog it missed")
    func aFailedConnectMovesToTheNextNode() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        // Node A's port is reserved for the whole test: the client dials it again after A stopped, and must be
        // refused there, not welcomed by another test's daemon (same test CA, same token secrets) given the port.
        let portA = try PortReservation()
        defer { withExtendedLifetime(portA) {} }
        let nodeA = try await Self.startNode(database, node: "node-a", on: portA)
        var nodeB: TestDaemon?
        let transport = try NodeListTransport(ports: [nodeA.port, nil])
        let client = Self.client(transport, token: nodeA.tokens.editor, instance: "failover-down")
        do {
            client.start()
            try await pollUntil("live on node A") { client.status.value.isLive }
            for (offset, name) in ["Ada", "Bea"].enumerated() {
                _ = try await Self.perform(client, .createPlayer(id: PlayerID(), name: name), base: Revision(offset))
            }
            try await pollUntil("the replica at r2") { client.replica.value.revision == 2 }
            let epoch = client.replica.value.epoch
            client.stop()
            try await pollUntil("the client to stop") { client.status.value.isStopped }

            // Someone else commits r3 and r4 on A while the client is away.
            let other = try await TestSession.open(nodeA, token: nodeA.tokens.editor2, stream: .acks)
            for seq in UInt64(1)...2 {
                try await other.send(
                    other.mutation(seq: seq, base: 2, .createPlayer(id: PlayerID(), name: "Other \(seq)"))
                )
                #expect(try await other.next() == .ack(seq: seq, revision: 2 + seq, noop: false))
            }
            let headOnA = try nodeA.storage.recover()

            let started = try await Self.startNode(database, node: "node-b")
            nodeB = started
            try transport.setPort(started.port, for: 1)
            await nodeA.stop()

            let opened = transport.servers.count
            client.start()
            try await pollUntil("live on node B at r4") {
                client.status.value.isLive && client.replica.value.revision == 4
            }
            #expect(Array(transport.servers.dropFirst(opened)) == [0, 1], "A refused, then B at once")
            #expect(client.server.value.node == "node-b")
            let onB = transport.received.filter { $0.server == 1 }.map(\.message)
            guard case .welcome(let welcome) = onB.first else {
                Issue.record("node B did not answer with a welcome first: \(onB)")
                throw NoWelcome()
            }
            #expect(welcome.mode == .backlog)
            #expect(welcome.epoch == epoch)
            #expect(
                onB.dropFirst().compactMap { if case .changeset(let c) = $0 { c.revision } else { nil } } == [
                    Revision(3), 4,
                ]
            )
            #expect(!onB.contains { if case .snapshotBegin = $0 { true } else { false } })
            #expect(client.replica.value.digest == headOnA.headDigest)

            let ack = try await Self.perform(client, .createPlayer(id: PlayerID(), name: "Dee"), base: 4)
            #expect(ack.revision == 5)
        } catch {
            client.stop()
            await nodeA.stop()
            await nodeB?.stop()
            throw error
        }
        client.stop()
        await nodeB?.stop()
    }
}
