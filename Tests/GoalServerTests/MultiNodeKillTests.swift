import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import NIOConcurrencyHelpers
import Testing

/// Three goald processes on one PostgreSQL database under 10 writers (issue 15 point 7): nodes killed with SIGKILL
/// one after another and the database's connections cut while the writers write. The writers move to a live node and
/// re-send what was not answered with the same ids, as GoalClient does.
@Suite(
    "three goald nodes under SIGKILL and a database outage",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct MultiNodeKillTests {
    @Test("every ack survives exactly once, no gap, one digest chain, after 6 node kills and a database outage")
    func killNodesUnderWriters() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: GoaldProcess.executable.path), "build goald first")
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let token: String
        do {
            let storage = try PostgresLeagueStorage(configuration: database)
            defer { try? storage.close() }  // the processes open their own
            token = try TestDaemon.ensureTokens(in: storage).editor
        }
        var environment = ["GOALD_STORE_URL": database.description]
        if let password = database.password { environment["GOALD_STORE_PASSWORD"] = password }
        let cluster = try Cluster(nodes: 3, environment: environment)
        try await cluster.startAll()

        let stopping = NIOLockedValueBox(false)
        let writing = Task {
            await withTaskGroup(of: RestartingWriter.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        var writer = RestartingWriter(index: index)
                        writer.pause = .milliseconds(10)  // ~100 commits/s per writer, not flat out
                        var node = index % 3
                        while !stopping.withLockedValue({ $0 }) {
                            guard let (port, connector) = cluster.liveNode(preferring: node) else {
                                try? await Task.sleep(for: .milliseconds(20))  // cancelled: look again at once
                                continue
                            }
                            await writer.write(port: port, token: token, connector: connector)
                            node += 1  // the connection dropped: the next node
                        }
                        return writer
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }

        var generator = SystemRandomNumberGenerator()
        for round in 0..<7 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...600, using: &generator)))
            if round == 3 {
                // The database goes away under every node: sessions stay, mutations are answered overloaded.
                try PostgresTestServer.refuseConnections(to: database)
                try await Task.sleep(for: .seconds(1))
                try PostgresTestServer.allowConnections(to: database)
            } else {
                let victim = round % 3
                await cluster.kill(victim)
                try await Task.sleep(for: .milliseconds(200))
                try await cluster.start(victim)
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        stopping.withLockedValue { $0 = true }
        await cluster.terminateAll()
        var writers = await writing.value.sorted { $0.index < $1.index }

        // One node settles what is still pending, one mutation at a time.
        try await cluster.start(0)
        let connector = try cluster.connector(0)
        for index in writers.indices { try await writers[index].settle(token: token, connector: connector) }
        await cluster.terminateAll()

        let storage = try PostgresLeagueStorage(configuration: database)
        defer { try? storage.close() }  // read-only check
        let league = try storage.recover()
        // A mutation applied twice would have been refused the second time as name_taken.
        #expect(writers.flatMap(\.refusals).isEmpty, "\(writers.flatMap(\.refusals).prefix(3))")
        let acked = writers.flatMap(\.acked.values)
        #expect(acked.count > 100, "the writers got going (\(acked.count) acks)")
        #expect(Set(acked).count == acked.count, "no revision acked twice")
        #expect(acked.count == Int(league.head), "every acked mutation is in the store, and nothing else")
        #expect(league.state.allPlayers.count == Int(league.head))
        var digest = Digest.genesis
        var revision: Revision = 0
        while revision < league.head {
            for frame in try storage.backlog(after: revision, upTo: league.head, limit: 1_000) {
                guard case .changeset(let decoded) = try ServerMessage.decode(frame.bytes) else {
                    Issue.record("revision \(frame.revision) is not a changeset")
                    return
                }
                #expect(decoded.revision == revision + 1)
                #expect(ChangesetFrame.verify(decoded, previousDigest: digest), "one digest chain across nodes")
                digest = decoded.digest
                revision = decoded.revision
            }
        }
        #expect(digest == league.headDigest)
    }
}

/// goald processes on one database, each with its own state directory (TLS material) and reserved port, which it
/// keeps across restarts (`PortReservation`: no other test can bind it while the node is down). Threading:
/// `Sendable`, lock-protected.
private final class Cluster: Sendable {
    private struct Node {
        let state: String
        let reservation: PortReservation
        var process: GoaldProcess?

        var port: Int { reservation.port }
    }

    private let nodes: NIOLockedValueBox<[Node]>
    private let environment: [String: String]

    init(nodes count: Int, environment: [String: String]) throws {
        var nodes: [Node] = []
        for _ in 0..<count {
            nodes.append(Node(state: try TestCertificates.makeTemporaryDirectory(), reservation: try PortReservation()))
        }
        self.nodes = NIOLockedValueBox(nodes)
        self.environment = environment
    }

    func startAll() async throws {
        for index in 0..<nodes.withLockedValue({ $0.count }) { try await start(index) }
    }

    /// Starts node `index` on its port and returns once it answers `/healthz`.
    func start(_ index: Int) async throws {
        var environment = self.environment
        environment["GOALD_NODE_ID"] = "node-\(index)"
        let node = nodes.withLockedValue { $0[index] }
        let process = try GoaldProcess.start(
            stateDirectory: node.state,
            port: node.port,
            environment: environment,
            log: node.state + "/goald.log"
        )
        try await waitUntilListening(process, index: index)
        nodes.withLockedValue { $0[index].process = process }
    }

    /// Returns once node `index` answers `/healthz`. Fails, recording the end of the node's log, when its process
    /// ends first or after 60 s (a full parallel suite on two cores has kept a restart from answering within 20 s).
    private func waitUntilListening(_ process: GoaldProcess, index: Int) async throws {
        let state = nodes.withLockedValue { $0[index].state }
        let deadline = ContinuousClock.now + .seconds(60)
        var problem = "did not answer /healthz within 60 s"
        while ContinuousClock.now < deadline {
            if let status = process.process.poll() {
                problem = "exited (\(status)) before it answered /healthz"
                break
            }
            if FileManager.default.fileExists(atPath: state + "/tls/ca.pem"),
                let response = try? await TestHTTPSClient.get(try connector(index), path: "/healthz"),  // not yet up
                response.status == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        let log = [state + "/goald.log", state + "/goald.log.err"]
            .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }  // a log not written is none to show
            .joined(separator: "\n")
        Issue.record("node \(index) \(problem); its log ends:\n\(log.suffix(3_000))")
        throw WaitTimeout()
    }

    func kill(_ index: Int) async {
        let process = nodes.withLockedValue { nodes in
            defer { nodes[index].process = nil }
            return nodes[index].process
        }
        await process?.kill()
    }

    func terminateAll() async {
        let processes = nodes.withLockedValue { nodes in
            defer { for index in nodes.indices { nodes[index].process = nil } }
            return nodes.compactMap(\.process)
        }
        for process in processes { await process.terminate() }
    }

    func connector(_ index: Int) throws -> TestTLSConnector {
        let node = nodes.withLockedValue { $0[index] }
        return try TestTLSConnector(port: node.port, security: .caFile(node.state + "/tls/ca.pem"))
    }

    /// A running node, `preferring` first (modulo the node count), then the ones after it.
    func liveNode(preferring first: Int) -> (Int, TestTLSConnector)? {
        let nodes = self.nodes.withLockedValue { $0 }
        for offset in 0..<nodes.count {
            let index = (first + offset) % nodes.count
            if nodes[index].process != nil, let connector = try? connector(index) {  // unreadable CA: not usable
                return (nodes[index].port, connector)
            }
        }
        return nil
    }
}
