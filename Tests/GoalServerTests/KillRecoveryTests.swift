import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

/// A goald process started from the built executable (through `ChildProcess`, never Foundation's `Process`), for
/// tests that kill it. Sendable: the pid and the port.
struct GoaldProcess: Sendable {
    let process: ChildProcess
    let port: Int

    /// The built `goald` next to the test bundle (`.build/<config>/goald`).
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("goald").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("goald")
    }

    /// Starts goald; with a `log` path, its output goes there at level notice (else nowhere, at level error).
    static func start(
        stateDirectory: String,
        port: Int,
        environment: [String: String] = [:],
        log: String? = nil
    ) throws -> GoaldProcess {
        let process = try ChildProcess.spawn(
            executable.path,
            [
                "serve", "--state-dir", stateDirectory, "--port", String(port), "--log-level",
                log == nil ? "error" : "notice",
            ],
            environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdout: log,
            stderr: log.map { $0 + ".err" }
        )
        return GoaldProcess(process: process, port: port)
    }

    /// SIGKILL, then waits for the exit (reaped; the port and the files are free again).
    func kill() async {
        process.signal(SIGKILL)
        _ = await process.wait()
    }

    /// SIGTERM (a graceful stop), then waits for the exit; SIGKILL if it has not ended within a minute.
    func terminate() async {
        process.signal(SIGTERM)
        _ = await process.wait()
    }
}

extension RestartingWriter {
    /// Sends what is still pending one mutation at a time on a healthy server and records each answer.
    mutating func settle(token: String, connector: TestTLSConnector) async throws {
        let client = try await TestWebSocketClient.connect(connector)
        try await client.send(
            text: ClientMessage.hello(.init(token: token, clientInstance: instance, stream: .acks)).encoded()
        )
        _ = try await client.nextText()
        for (seq, mutation) in pending.sorted(by: { $0.key < $1.key }) {
            try await client.send(text: ClientMessage.mutate(.init(mutation)).encoded())
            let answer = try ServerMessage.decode(Array(try await client.nextText().utf8))
            switch answer {
            case .ack(seq, let revision, _): acked[seq] = revision
            case .rejected(seq, let rejection): refusals.append(rejection)
            default: Issue.record("unexpected answer \(answer)")
            }
        }
        pending = [:]
        await client.disconnect()
    }
}

/// A writer that keeps its client instance and unacknowledged mutations across daemon restarts and re-sends them
/// with the same ids, as GoalClient's outbox does.
struct RestartingWriter: Sendable {
    let index: Int
    let instance = ClientInstanceID.random()
    var nextSeq: UInt64 = 1
    var pending: [UInt64: Mutation] = [:]
    var acked: [UInt64: Revision] = [:]
    var refusals: [MutationRejection] = []
    /// A wait after each answer (nil: flat out), so a test with several goald processes leaves the machine to the
    /// other tests running beside it.
    var pause: Duration?

    /// One connection's worth of writing: re-send what is pending, then write new mutations with at most 8 in
    /// flight until the connection drops.
    mutating func write(port: Int, token: String, connector: TestTLSConnector) async {
        guard let client = try? await TestWebSocketClient.connect(connector) else { return }
        let hello = ClientMessage.hello(.init(token: token, clientInstance: instance, stream: .acks))
        guard (try? await client.send(text: hello.encoded())) != nil,
            let welcome = try? await client.nextText(timeout: .seconds(5)), welcome.contains("welcome")
        else { return }
        for seq in pending.keys.sorted() {
            guard (try? await client.send(text: ClientMessage.mutate(.init(pending[seq]!)).encoded())) != nil else {
                return
            }
        }
        while true {
            while pending.count < 8 {
                let seq = nextSeq
                nextSeq += 1
                let mutation = Mutation(
                    id: MutationID(instance: instance, seq: seq),
                    base: 0,
                    action: .createPlayer(id: PlayerID(), name: "w\(index)-\(seq)")
                )
                pending[seq] = mutation
                guard (try? await client.send(text: ClientMessage.mutate(.init(mutation)).encoded())) != nil else {
                    return
                }
            }
            guard let received = try? await client.next(timeout: .seconds(5)) else { return }
            guard case .text(let bytes) = received, let message = try? ServerMessage.decode(bytes) else {
                if case .closed = received { return }
                continue
            }
            switch message {
            case .ack(let seq, let revision, _):
                pending[seq] = nil
                acked[seq] = revision
                if let pause { try? await Task.sleep(for: pause) }  // cancelled: write on at once
            case .rejected(let seq, let rejection):
                pending[seq] = nil
                refusals.append(rejection)
            case .overloaded(let seq, _):
                // Not decided (the store is down or the engine full): the same mutation again, a little later.
                try? await Task.sleep(for: .milliseconds(50))  // cancelled: re-send at once
                guard let seq, let mutation = pending[seq],
                    (try? await client.send(text: ClientMessage.mutate(.init(mutation)).encoded())) != nil
                else { continue }
            case .rateLimited:
                try? await Task.sleep(for: .milliseconds(50))  // cancelled: go on at once
            default:
                break
            }
        }
    }
}

@Suite("durability under SIGKILL", .serialized, .slotted)
struct KillRecoveryTests {
    @Test("goald killed with SIGKILL 20 times under 10 writers: every ack survives exactly once, no gap, no half batch")
    func killAtRandomInstants() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: GoaldProcess.executable.path), "build goald first")
        let state = try TestCertificates.makeTemporaryDirectory()
        // A reserved port: goald is started on it 21 times, and no other test may bind it in between.
        let reservation = try PortReservation()
        defer { withExtendedLifetime(reservation) {} }
        let port = reservation.port
        var writers = (0..<10).map { RestartingWriter(index: $0) }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let goald = try GoaldProcess.start(stateDirectory: state, port: port)
            let token = try await Self.adminToken(in: state)
            let connector = try TestTLSConnector(port: port, security: .caFile(state + "/tls/ca.pem"))
            try await Self.waitUntilListening(connector)
            let killAfter = Duration.milliseconds(Int.random(in: 100...400, using: &generator))
            writers = await withTaskGroup(of: RestartingWriter.self) { group in
                for writer in writers {
                    group.addTask {
                        var writer = writer
                        await writer.write(port: port, token: token, connector: connector)
                        return writer
                    }
                }
                try? await Task.sleep(for: killAfter)
                await goald.kill()
                return await group.reduce(into: []) { $0.append($1) }.sorted { $0.index < $1.index }
            }
            _ = round
        }
        // A last clean run lets every writer settle what is pending.
        let goald = try GoaldProcess.start(stateDirectory: state, port: port)
        let token = try await Self.adminToken(in: state)
        let connector = try TestTLSConnector(port: port, security: .caFile(state + "/tls/ca.pem"))
        try await Self.waitUntilListening(connector)
        for index in writers.indices { try await writers[index].settle(token: token, connector: connector) }
        await goald.terminate()

        let storage = try SQLiteLeagueStorage(path: state + "/goald.sqlite")
        defer { try? storage.close() }
        let league = try storage.recover()
        // No mutation was ever applied twice: a second apply would have been refused as name_taken.
        #expect(writers.flatMap(\.refusals).isEmpty)
        let acked = writers.flatMap(\.acked.values)
        #expect(Set(acked).count == acked.count)
        #expect(acked.count == Int(league.head))
        #expect(league.state.allPlayers.count == Int(league.head))
        // Every revision 1…head is in the log, each chained to the one before: no gap, no half batch.
        var digest = Digest.genesis
        var revision: Revision = 0
        while revision < league.head {
            for frame in try storage.backlog(after: revision, upTo: league.head, limit: 1_000) {
                let changeset = try #require(try? ServerMessage.decode(frame.bytes))
                guard case .changeset(let decoded) = changeset else {
                    Issue.record("not a changeset")
                    return
                }
                #expect(decoded.revision == revision + 1)
                #expect(ChangesetFrame.verify(decoded, previousDigest: digest))
                digest = decoded.digest
                revision = decoded.revision
            }
        }
        #expect(digest == league.headDigest)
    }

    static func adminToken(in state: String) async throws -> String {
        try await pollUntil("the admin token file") { FileManager.default.fileExists(atPath: state + "/admin-token") }
        return try String(contentsOfFile: state + "/admin-token", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines
        )
    }

    static func waitUntilListening(_ connector: TestTLSConnector) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let response = try? await TestHTTPSClient.get(connector, path: "/healthz"), response.status == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw WaitTimeout()
    }
}
