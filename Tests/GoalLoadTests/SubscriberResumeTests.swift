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

@testable import goal_load

/// goal-load's subscribers follow the stream through the shared `ResumeSession`: when goald restarts over the same
/// database, both the lean (peeking) and the sampled (decoding) subscriber resume with since + epoch + digest and
/// go on without a snapshot.
@Suite("goal-load subscribers resume through the shared ResumeSession", .serialized, .slotted)
struct SubscriberResumeTests {
    @Test func leanAndSampledSubscribersResumeAcrossARestartWithoutASnapshot() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goal-load-resume-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // best effort: a leftover temp dir harms nothing
        let path = directory.appendingPathComponent("league.sqlite").path

        // A reserved port: the subscribers reconnect to this address, and no other test may listen on it meanwhile.
        let reservation = try PortReservation()
        defer { withExtendedLifetime(reservation) {} }
        let first = try await TestDaemon.start(databaseAt: path, on: reservation)
        let port = first.port
        let endpoint = try ServerEndpoint(parsing: "wss://127.0.0.1:\(port)")
        let context = LoadContext(
            transport: try WebSocketTransport(endpoint: endpoint, security: .caPEM(TestCertificates.shared.caPEM)),
            token: first.tokens.viewer,
            sendTimes: SendTimeDirectory(prefix: "load-resume-w", writers: 1),
            latency: LatencyRecorder(),
            addresses: SourceAddresses(endpoint: endpoint, perAddress: 400)
        )
        let lean = LoadSubscriber(index: 0, sampled: false, context: context)
        let sampled = LoadSubscriber(index: 1, sampled: true, context: context)
        let subscribers = [lean, sampled]
        func all(_ condition: (SubscriberSnapshot) -> Bool) -> Bool {
            subscribers.allSatisfy { condition($0.snapshot()) }
        }

        func describe() -> String {
            subscribers.map { subscriber in
                let s = subscriber.snapshot()
                return "r\(s.revision) \(s.phase) deliveries \(s.deliveries) reconnects \(s.reconnects) "
                    + "failed \(s.failedAttempts) problems \(s.problems)"
            }
            .joined(separator: "; ")
        }

        var second: TestDaemon?
        do {
            for subscriber in subscribers { subscriber.connect() }
            // Both welcomed on the empty league first: one that said hello after r1 would get a snapshot.
            try await pollUntil("both subscribers welcomed", detail: describe) { all { $0.phase == .live } }
            try await addPlayer("Ada", to: first)
            try await addPlayer("Bo", to: first)
            try await pollUntil("r2 at both subscribers", detail: describe) {
                all { $0.revision == 2 && $0.deliveries == 2 }
            }
            let digest = lean.snapshot().digest

            await first.stop()
            second = try await TestDaemon.start(databaseAt: path, on: reservation)
            try await addPlayer("Cy", to: second!)
            try await pollUntil("r3 at both subscribers", detail: describe) { all { $0.revision == 3 } }
            for subscriber in subscribers {
                let snapshot = subscriber.snapshot()
                #expect(snapshot.deliveries == 3, "every changeset once, none replaced by a snapshot")
                #expect(snapshot.snapshots == 0)
                #expect(snapshot.reconnects >= 1)
                #expect(snapshot.problemCount == 0, "\(snapshot.problems)")
            }
            #expect(sampled.snapshot().replica?.players.count == 3)
            #expect(sampled.snapshot().digest == lean.snapshot().digest)
            #expect(digest != lean.snapshot().digest)
            context.running.store(false, ordering: .relaxed)
            for subscriber in subscribers { subscriber.disconnect() }
            await second?.stop()
        } catch {
            context.running.store(false, ordering: .relaxed)
            for subscriber in subscribers { subscriber.disconnect() }
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
