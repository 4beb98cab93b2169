import Foundation
import GoalClient
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization
import Testing

@testable import goal_client

/// `tail` follows the stream through the shared `ResumeSession`: when goald restarts over the same database, it
/// resumes with since + epoch + digest and goes on without a snapshot, printing every changeset exactly once.
@Suite("goal-client tail resumes through the shared ResumeSession", .serialized, .slotted)
struct TailResumeTests {
    @Test("tail resumes across a daemon restart without a snapshot and prints each changeset once")
    func resumesAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goal-tail-resume-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // best effort: a leftover temp dir harms nothing
        let path = directory.appendingPathComponent("league.sqlite").path

        // A reserved port: tail reconnects to this address, and no other test may listen on it meanwhile.
        let reservation = try PortReservation()
        defer { withExtendedLifetime(reservation) {} }
        let first = try await TestDaemon.start(databaseAt: path, on: reservation)
        let port = first.port
        let lines = Mutex<[String]>([])
        let transport = try WebSocketTransport(
            endpoint: try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)"),
            security: .caPEM(TestCertificates.shared.caPEM)
        )
        let follower = TailFollower(
            transport: transport,
            token: first.tokens.viewer,
            servers: ["127.0.0.1:\(port)"],
            options: TailOptions(since: nil, allowSnapshot: false, json: true),
            output: { line in lines.withLock { $0.append(line) } }
        )
        let run = Task { await follower.run(seed: ReplicaState()) }
        func revisions() -> [Int] {
            lines.withLock { $0 }.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["revision"] as? Int
            }
        }
        func types() -> [String] {
            lines.withLock { $0 }.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
            }
        }

        var second: TestDaemon?
        do {
            try await addPlayer("Ada", to: first)
            try await addPlayer("Bo", to: first)
            try await pollUntil("r1 and r2 before the restart") { revisions() == [1, 2] }

            await first.stop()
            second = try await TestDaemon.start(databaseAt: path, on: reservation)
            try await addPlayer("Cy", to: second!)
            try await pollUntil("r3 after the restart") { revisions() == [1, 2, 3] }
            follower.stop()
            if case .failure(let failure) = await run.value { Issue.record("tail failed: \(failure)") }
            #expect(types() == ["changeset", "changeset", "changeset"], "no snapshot line: \(lines.withLock { $0 })")
            await second?.stop()
        } catch {
            follower.stop()
            _ = await run.value
            await first.stop()
            await second?.stop()
            throw error
        }
    }

    @Test("tail resumed against another database (another epoch) takes a snapshot instead of splicing its history")
    func anotherEpochBringsASnapshot() async throws {
        let reservation = try PortReservation()
        defer { withExtendedLifetime(reservation) {} }
        let first = try await TestDaemon.start(on: reservation)
        let port = first.port
        let lines = Mutex<[String]>([])
        let follower = TailFollower(
            transport: try WebSocketTransport(
                endpoint: try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)"),
                security: .caPEM(TestCertificates.shared.caPEM)
            ),
            token: first.tokens.viewer,
            servers: ["127.0.0.1:\(port)"],
            options: TailOptions(since: nil, allowSnapshot: false, json: true),
            output: { line in lines.withLock { $0.append(line) } }
        )
        let run = Task { await follower.run(seed: ReplicaState()) }
        func objects() -> [[String: Any]] {
            lines.withLock { $0 }.compactMap { line in
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        }
        var second: TestDaemon?
        do {
            try await addPlayer("Ada", to: first)
            try await addPlayer("Bo", to: first)
            try await pollUntil("r1 and r2 of the first database") { objects().count == 2 }
            await first.stop()

            // Another database (a fresh epoch) with three commits of its own, on the same address.
            second = try await TestDaemon.start(on: reservation)
            for name in ["Xu", "Yo", "Zed"] { try await addPlayer(name, to: second!) }
            try await pollUntil("what tail prints after the switch") { objects().count >= 3 }
            let third = objects()[2]
            #expect(third["type"] as? String == "snapshot", "r3 of another history must not follow r2: \(third)")
            // Tail may reconnect before or after any of the three commits (its first retry comes 1 s after the
            // stop, and under load the commits may take longer): the snapshot holds those made by then, and the
            // rest follow as changesets up to r3.
            #expect((0...3).contains(third["revision"] as? Int ?? -1), "\(third)")
            try await pollUntil("r3 of the second database") { objects().last?["revision"] as? Int == 3 }
            follower.stop()
            _ = await run.value
            await second?.stop()
        } catch {
            follower.stop()
            _ = await run.value
            await first.stop()
            await second?.stop()
            throw error
        }
    }

    @Test("a silent peer (no message, no pong for the idle timeout) is abandoned with 4010 and tail resumes")
    func aSilentPeerIsAbandoned() async throws {
        let server = MuteServerTransport()
        let follower = TailFollower(
            transport: server,
            token: "t",
            servers: ["mute"],
            options: TailOptions(since: 7, allowSnapshot: false, json: true),
            heartbeat: HeartbeatPolicy(pingInterval: 0.05, idleTimeout: 0.2),
            output: { _ in }
        )
        let run = Task { await follower.run(seed: ReplicaState()) }
        try await pollUntil("a second connection after the dead peer") { server.hellos.withLock { $0.count } >= 2 }
        follower.stop()
        _ = await run.value
        #expect(server.closeCodes.withLock { $0.first } == CloseCode.heartbeatTimeout.rawValue)
        #expect(server.hellos.withLock { $0.map(\.since) }.prefix(2) == [7, 7])
        #expect(server.hellos.withLock { $0[1].epoch } == LeagueEpoch(rawValue: "mute-epoch"))
    }
}

/// A server that welcomes every hello live, then never sends anything and never answers pings.
private final class MuteServerTransport: Transport {
    let hellos = Mutex<[ClientMessage.Hello]>([])
    let closeCodes = Mutex<[UInt16]>([])

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        DispatchQueue.global().async { events(.connected) }
        return MuteConnection(server: self, events: events)
    }
}

private final class MuteConnection: TransportConnection {
    let server: MuteServerTransport
    let events: @Sendable (TransportEvent) -> Void

    init(server: MuteServerTransport, events: @escaping @Sendable (TransportEvent) -> Void) {
        self.server = server
        self.events = events
    }

    func send(_ message: [UInt8]) {
        guard case .hello(let hello) = try? ClientMessage.decode(message) else { return }  // only hellos matter here
        server.hellos.withLock { $0.append(hello) }
        let welcome = ServerMessage.Welcome(
            epoch: LeagueEpoch(rawValue: "mute-epoch"),
            head: hello.since ?? 0,
            headDigest: .genesis,
            mode: .live,
            role: .viewer,
            serverTime: Timestamp(millisecondsSince1970: 0)
        )
        let events = self.events
        DispatchQueue.global().async { events(.message(ServerMessage.welcome(welcome).encoded())) }
    }

    func ping() {}

    func close(code: UInt16) {
        server.closeCodes.withLock { $0.append(code) }
    }
}

/// Commits one new player through a raw session and waits for its ack.
private func addPlayer(_ name: String, to daemon: TestDaemon) async throws {
    let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
    try await session.send(session.mutation(seq: 1, base: 0, .createPlayer(id: PlayerID(), name: name)))
    _ = try await session.collect { message in
        if case .ack = message { return true }
        return false
    }
    try await session.client.close(code: 1000)
}
