import Foundation
import GoalClient
import GoalModel
import GoalServer
import GoalStore
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization
import Testing

@testable import goal_client

/// `tail` follows the stream through the shared `ResumeSession`: when goald restarts over the same database, it
/// resumes with since + epoch + digest and goes on without a snapshot, printing every changeset exactly once.
@Suite("goal-client tail resumes through the shared ResumeSession", .serialized)
struct TailResumeTests {
    @Test("tail resumes across a daemon restart without a snapshot and prints each changeset once")
    func resumesAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goal-tail-resume-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // best effort: a leftover temp dir harms nothing
        let path = directory.appendingPathComponent("league.sqlite").path

        let first = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
        let port = first.port
        let lines = Mutex<[String]>([])
        let transport = try WebSocketTransport(
            endpoint: try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)"),
            security: .caPEM(TestCertificates.shared.caPEM)
        )
        let follower = TailFollower(
            transport: transport,
            token: first.tokens.viewer,
            serverName: "127.0.0.1:\(port)",
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
            second = try await TestDaemon.start(
                storage: try SQLiteLeagueStorage(path: path),
                configure: { $0.port = port }
            )
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

/// Polls `condition` until it holds (20 s at most: a limit for a hung test, not a timing assertion).
private func pollUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
