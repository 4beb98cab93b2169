import ArgumentParser
import Foundation
import GoalClient
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization
import Testing

@testable import goal_load

/// goal-load's connections against live daemons: subscribers and writers spread over two URLs round robin, and a
/// subscriber whose node stops resumes on the other (the shared `ResumeSession` rules).
@Suite("goal-load spreads connections over live nodes", .serialized, .slotted)
struct MultiNodeLiveTests {
    /// A context over the daemons' ports, trusting the test CA.
    static func context(ports: [Int], token: String) throws -> LoadContext {
        let endpoints = try ports.map { try ServerEndpoint(parsing: "wss://127.0.0.1:\($0)") }
        return LoadContext(
            transport: try WebSocketTransport(endpoints: endpoints, security: .caPEM(TestCertificates.shared.caPEM)),
            token: token,
            sendTimes: SendTimeDirectory(prefix: "load-spread-w", writers: 2),
            latency: LatencyRecorder(),
            addresses: SourceAddresses(endpoints: endpoints, perAddress: 400)
        )
    }

    @Test("four subscribers and two writers over two nodes: each node holds half of them")
    func connectionsAreSpread() async throws {
        try await withTestDaemon { nodeA in
            try await withTestDaemon { nodeB in
                let context = try Self.context(ports: [nodeA.port, nodeB.port], token: nodeA.tokens.editor)
                let subscribers = (0..<4).map {
                    LoadSubscriber(index: $0, sampled: false, context: context, server: $0)
                }
                let writers = (0..<2).map { index in
                    LoadWriter(
                        index: index,
                        slot: 4 + index,
                        instance: ClientInstanceID("load-spread-w\(index)")!,
                        context: context,
                        window: 1,
                        rate: 0,
                        source: MutationSource(plan: WriterPlan(), writerIndex: index),
                        sendTimes: nil,
                        server: index % 2
                    )
                }
                defer {
                    context.running.store(false, ordering: .relaxed)
                    for subscriber in subscribers { subscriber.disconnect() }
                    for writer in writers { writer.disconnect() }
                }
                for subscriber in subscribers { subscriber.connect() }
                for writer in writers { writer.connect() }
                try await pollUntil("every connection welcomed") {
                    subscribers.allSatisfy { $0.snapshot().phase == .live } && writers.allSatisfy(\.isReady)
                }
                #expect(subscribers.map { $0.snapshot().server } == [0, 1, 0, 1])
                #expect(nodeA.metric("goald_sessions") == 3)
                #expect(nodeB.metric("goald_sessions") == 3)
            }
        }
    }

    @Test("a writer whose node stops moves on to the other node and its next mutation is acked there")
    func aWriterFailsOver() async throws {
        let nodeB = try await TestDaemon.start()
        let nodeA = try await TestDaemon.start()
        let context = try Self.context(ports: [nodeA.port, nodeB.port], token: nodeA.tokens.editor)
        let writer = LoadWriter(
            index: 0,
            slot: 0,
            instance: ClientInstanceID("load-failover-w0")!,
            context: context,
            window: 1,
            rate: 0,
            source: MutationSource(plan: WriterPlan(), writerIndex: 0),
            sendTimes: nil
        )
        do {
            writer.connect()
            try await pollUntil("the writer welcomed on node A") { writer.isReady }
            #expect(writer.server == 0)
            await nodeA.stop()
            try await pollUntil("the writer welcomed on node B") { writer.server == 1 && writer.isReady }
            writer.run(script: [.createPlayer(id: PlayerID(), name: "Ada")])
            try await pollUntil("the mutation acked") { writer.scriptDone }
            #expect(writer.counters.accepted == 1)
            #expect(try nodeB.storage.recover().state.allPlayers.map(\.name) == ["Ada"])
        } catch {
            context.running.store(false, ordering: .relaxed)
            writer.disconnect()
            await nodeA.stop()
            await nodeB.stop()
            throw error
        }
        context.running.store(false, ordering: .relaxed)
        writer.disconnect()
        await nodeB.stop()
    }

    @Test(
        "on one PostgreSQL database: a subscriber whose node stops resumes on the other without a snapshot",
        .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage))
    )
    func aSubscriberFailsOver() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let nodeA = try await TestDaemon.start(storage: try PostgresLeagueStorage(configuration: database))
        // r1 is committed on A before B starts: B reads it from the database (live sharing is not tested here).
        let editor = try await TestSession.open(nodeA, token: nodeA.tokens.editor, stream: .acks)
        try await editor.send(editor.mutation(seq: 1, base: 0, .createPlayer(id: PlayerID(), name: "Ada")))
        #expect(try await editor.next() == .ack(seq: 1, revision: 1, noop: false))
        let nodeB = try await TestDaemon.start(storage: try PostgresLeagueStorage(configuration: database))
        let context = try Self.context(ports: [nodeA.port, nodeB.port], token: nodeA.tokens.viewer)
        let subscribers = (0..<2).map {
            LoadSubscriber(index: $0, sampled: $0 == 0, context: context, server: $0)
        }
        do {
            for subscriber in subscribers { subscriber.connect() }
            try await pollUntil("both subscribers at r1") {
                subscribers.allSatisfy { $0.snapshot().phase == .live && $0.snapshot().revision == 1 }
            }
            #expect(subscribers.map { $0.snapshot().server } == [0, 1])
            let snapshotsBefore = subscribers[0].snapshot().snapshots
            await nodeA.stop()
            try await pollUntil("subscriber 0 live on node B") {
                let s = subscribers[0].snapshot()
                return s.server == 1 && s.phase == .live && s.reconnects == 1
            }
            let moved = subscribers[0].snapshot()
            #expect(moved.snapshots == snapshotsBefore, "resumed from r1, not sent the league again")
            #expect(moved.revision == 1)
            #expect(moved.problemCount == 0, "\(moved.problems)")
            #expect(nodeB.metric("goald_sessions") == 2)
        } catch {
            context.running.store(false, ordering: .relaxed)
            for subscriber in subscribers { subscriber.disconnect() }
            await nodeA.stop()
            await nodeB.stop()
            throw error
        }
        context.running.store(false, ordering: .relaxed)
        for subscriber in subscribers { subscriber.disconnect() }
        await nodeB.stop()
    }

    @Test(
        "goal-load --url A --url B on one PostgreSQL database converges on both nodes",
        .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage))
    )
    func twoNodesConverge() async throws {
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let report = try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { nodeA in
            try await withTestDaemon(storage: try PostgresLeagueStorage(configuration: database)) { nodeB in
                var shape = LoadConfiguration.Shape()
                shape.subscribers = 6
                shape.writers = 2
                shape.rate = 40
                shape.duration = 1.5
                shape.sampled = 2
                shape.players = 4
                shape.matches = 3
                var configuration = LoadConfiguration(
                    endpoints: try [nodeA.port, nodeB.port].map {
                        try ServerEndpoint(parsing: "wss://127.0.0.1:\($0)")
                    },
                    security: .caPEM(TestCertificates.shared.caPEM),
                    token: nodeA.tokens.editor,
                    scenario: nil,
                    shape: shape
                )
                configuration.progressInterval = nil
                configuration.settleTimeout = 20
                return try await LoadRunner(configuration: configuration, progress: { _ in }).run()
            }
        }
        #expect(report.convergence.converged, "\(report.convergence.problems)")
        #expect(report.nodes.map(\.subscribers) == [3, 3])
        #expect(report.nodes.map(\.writers) == [1, 1])
        #expect(report.nodes.allSatisfy { $0.head == report.convergence.head })
        // Each writer's commits reach subscribers on its own node and on the other one, measured apart.
        let byNode = try #require(report.latencyByNode, "two nodes: latencies on the writer's node and the other")
        #expect(byNode.writersNode.samples > 0 && byNode.otherNodes.samples > 0)
        #expect(byNode.writersNode.samples + byNode.otherNodes.samples == report.latency.samples)
        #expect(report.text.contains("on the writer's node"))
        #expect(report.text.contains("node wss://127.0.0.1:\(report.nodes[1].url.split(separator: ":").last ?? "")"))
    }
}
