import Foundation
import GoalModel
import GoalPostgres
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

/// Three goald processes started with the defaults on one host and one PostgreSQL database (issue 34 point 6): each
/// runs under its own node id (kept in its state directory, so a restart after SIGKILL keeps it), presence from each
/// reaches all, and a node started with a live node's id is refused with an error naming both.
@Suite(
    "goald processes with default node ids on one PostgreSQL database",
    .enabled(if: PostgresTestServer.isEnabled, Comment(rawValue: PostgresTestServer.skipMessage)),
    .slotted
)
struct NodeIdentityProcessTests {
    @Test("3 nodes with defaults: distinct ids from their state directories, presence seen by all, duplicates refused")
    func defaultNodeIDsAreDistinct() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: GoaldProcess.executable.path), "build goald first")
        let database = try PostgresTestServer.makeDatabase()
        defer { try? PostgresTestServer.dropDatabase(database) }  // cleanup only
        let tokens: TestDaemon.Tokens
        do {
            let storage = try PostgresLeagueStorage(configuration: database)
            defer { try? storage.close() }  // the processes open their own
            tokens = try TestDaemon.ensureTokens(in: storage)
        }
        var environment = ["GOALD_STORE_URL": database.description]
        if let password = database.password { environment["GOALD_STORE_PASSWORD"] = password }

        var nodes: [Node] = []
        defer { for node in nodes { node.process.process.signal(SIGKILL) } }  // a failed test leaves no process behind
        for _ in 0..<3 {
            nodes.append(try await Node.start(state: try TestCertificates.makeTemporaryDirectory(), environment))
        }

        // Distinct ids, each the one its state directory keeps: <host name's first label>-<6 hex digits>.
        var ids: [String] = []
        for node in nodes {
            let id = try await node.healthzNode()
            let kept = try String(contentsOfFile: node.state + "/node-id", encoding: .utf8)
            #expect(kept == id + "\n")
            #expect(id.wholeMatch(of: /.+-[0-9a-f]{6}/) != nil, "\(id)")
            ids.append(id)
        }
        #expect(Set(ids).count == 3, "\(ids)")

        // One presence session on each node; each sees all three members, each named with its own node.
        let secrets = [tokens.editor, tokens.editor2, tokens.viewer]
        var sessions: [TestSession] = []
        for (node, secret) in zip(nodes, secrets) {
            sessions.append(try await TestSession.open(connector: try node.connector(), token: secret, presence: .all))
        }
        let expected = Dictionary(uniqueKeysWithValues: zip(sessions.map(\.instance), ids))
        for session in sessions {
            let members = try await session.waitForMembers(expected.count)
            #expect(
                Dictionary(members.map { ($0.clientInstance, $0.node) }) { first, _ in first } == expected,
                "\(members)"
            )
        }

        // A fourth node told to use node 0's id is refused, and says who holds it and who it is.
        let intruderState = try TestCertificates.makeTemporaryDirectory()
        var intruderEnvironment = environment
        intruderEnvironment["GOALD_NODE_ID"] = ids[0]
        let intruder = try GoaldProcess.start(
            stateDirectory: intruderState,
            port: 0,
            environment: intruderEnvironment,
            log: intruderState + "/goald.log"
        )
        let status = await intruder.process.wait()
        #expect(status != 0)
        let said = Node.output(intruderState)
        #expect(said.contains("node id \"\(ids[0])\" is already held by a live goald"), "\(said)")
        #expect(said.contains("state \(nodes[0].state)"), "names the holder: \(said)")
        #expect(said.contains("state \(intruderState)"), "names itself: \(said)")

        // Node 0 killed with SIGKILL comes back under the same id: its old session's end frees it.
        await nodes[0].process.kill()
        nodes[0] = try await Node.start(state: nodes[0].state, environment)
        #expect(try await nodes[0].healthzNode() == ids[0])
        for node in nodes { await node.process.terminate() }
        nodes.removeAll()
    }
}

/// A goald process on a port of its own choosing (port 0: no other test can take it between a probe and the bind),
/// read from its banner. Sendable: the process and where it is.
private struct Node: Sendable {
    let process: GoaldProcess
    let state: String
    let port: Int

    /// Starts goald on `state` and waits (at most 60 s) for its banner's URL.
    static func start(state: String, _ environment: [String: String]) async throws -> Node {
        let process = try GoaldProcess.start(
            stateDirectory: state,
            port: 0,
            environment: environment,
            log: state + "/goald.log"
        )
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let banner = output(state)
            if let match = banner.firstMatch(of: /goald is listening on wss:\/\/127\.0\.0\.1:(\d+)\//),
                let port = Int(match.1)
            {
                return Node(process: process, state: state, port: port)
            }
            if process.process.poll() != nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        process.process.signal(SIGKILL)
        _ = await process.process.wait()
        Issue.record("goald did not start on \(state); it said:\n\(output(state).suffix(3_000))")
        throw WaitTimeout()
    }

    /// What goald wrote to standard output and standard error so far.
    static func output(_ state: String) -> String {
        [state + "/goald.log", state + "/goald.log.err"]
            .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }  // not written yet: nothing to show
            .joined(separator: "\n")
    }

    func connector() throws -> TestTLSConnector {
        try TestTLSConnector(port: port, security: .caFile(state + "/tls/ca.pem"))
    }

    /// The `node` field of `/healthz`.
    func healthzNode() async throws -> String {
        let response = try await TestHTTPSClient.get(try connector(), path: "/healthz")
        let body = try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any]
        return try #require(body?["node"] as? String, "\(response.bodyText)")
    }
}

extension TestSession {
    /// Reads this session's presence (its `presence_state`, then events) until it lists `count` members.
    fileprivate func waitForMembers(_ count: Int) async throws -> [PresenceMember] {
        var members: [PresenceMember] = []
        while members.count < count {
            switch try await next() {
            case .presenceState(let state): members = state
            case .presence(let event): members.apply(event)
            default: continue
            }
        }
        return members
    }
}
