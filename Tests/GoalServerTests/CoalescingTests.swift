import Foundation
import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("fan-out rounds: rolling slices, batches that wait for the next visit", .slotted)
struct CoalescingTests {
    @Test(
        "batches made durable while a shard holds its next round go out in one round: in order, each once, acks after changesets"
    )
    func batchesShareARound() async throws {
        let gate = FanoutGate()
        try await withTestDaemon(seams: DaemonSeams(fanoutGate: gate)) { daemon in
            let watcher = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor)
            // The first batch goes out at once; every later round waits for the gate.
            let first = try await author.commit(seq: 1, base: 0, Make.createPlayer("P1"))
            #expect(first.last == .ack(seq: 1, revision: 1, noop: false))
            #expect(try await watcher.next().changesetRevision == 1)
            // Sent one by one: several batches, all durable while the next round is held.
            for seq in UInt64(2)...6 {
                try await author.send(author.mutation(seq: seq, base: 1, Make.createPlayer("P\(seq)")))
            }
            try await daemon.waitForMetric("goald_commits_total", atLeast: 6)
            try await Self.waitForDurableHead(6, daemon)
            gate.open()
            let answers = try await author.collect { $0.isAck(seq: 6) }
            for seq in UInt64(2)...6 {
                let changeset = answers.firstIndex { $0.changesetRevision == Revision(seq) }
                let ack = answers.firstIndex { $0.isAck(seq: seq) }
                #expect(changeset != nil && ack != nil && changeset! < ack!, "seq \(seq) in \(answers)")
            }
            #expect(answers.compactMap(\.changesetRevision) == [2, 3, 4, 5, 6])

            var revisions: [Revision] = []
            while revisions.count < 5 {
                if let revision = try await watcher.next().changesetRevision { revisions.append(revision) }
            }
            #expect(revisions == [2, 3, 4, 5, 6])

            let rounds = try #require(Self.histogram("goald_fanout_round_batches", in: daemon.metricsText()))
            #expect(rounds.sum > rounds.count, "some round carried more than one batch: \(rounds)")
        }
    }

    @Test("a graceful stop first sends the changesets and acks still waiting for the next round")
    func stopDeliversTheWaitingRound() async throws {
        let gate = FanoutGate()
        let daemon = try await TestDaemon.start(seams: DaemonSeams(fanoutGate: gate))
        let watcher = try await TestSession.open(daemon, token: daemon.tokens.viewer)
        let author = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
        _ = try await author.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
        #expect(try await watcher.next().changesetRevision == 1)
        // Durable, but waiting for a round the gate holds.
        try await author.send(author.mutation(seq: 2, base: 1, Make.createPlayer("Bea")))
        try await Self.waitForDurableHead(2, daemon)
        await gate.waitUntilHeld()
        try await daemon.stop().get()

        let (seen, watcherClose) = try await watcher.readUntilClosed()
        #expect(seen.compactMap(\.changesetRevision) == [2])
        #expect(watcherClose == 1001)
        let (answers, _) = try await author.readUntilClosed()
        #expect(answers.contains { $0 == .ack(seq: 2, revision: 2, noop: false) }, "\(answers)")
    }

    @Test(
        "one loop, 150 subscribers: rounds go out in slices, and every subscriber, early or joining mid-stream, sees each revision once, in order"
    )
    func slicedRounds() async throws {
        let oneLoop: (inout ServerConfiguration) -> Void = { $0.eventLoopThreads = 1 }
        // The test's raw clients do not answer pings, and the later subscribers wait while earlier ones are read:
        // on a busy machine that took longer than the 40 s idle timeout once in five parallel runs.
        var limits = ServerLimits()
        limits.idleTimeoutMilliseconds = 600_000
        try await withTestDaemon(limits: limits, configure: oneLoop) { daemon in
            var subscribers = (0..<150).map { _ in ResumingSubscriber(token: daemon.tokens.viewer) }
            var sessions: [TestSession] = []
            for index in 0..<100 { sessions.append(try await subscribers[index].session(daemon)) }
            // 100 sessions on the one loop: every round takes five slices (LoopShard.sliceSize is 24); 50 more join
            // while commits stream.
            let writing = Task { try await ResumeTests.commitPlayers(daemon, count: 80) }
            for index in 100..<150 { sessions.append(try await subscribers[index].session(daemon)) }
            let head = try await writing.value
            #expect(head == 80)
            for index in subscribers.indices {
                try await subscribers[index].follow(sessions[index], to: head)
                #expect(subscribers[index].received == Array(1...head), "subscriber \(index)")
            }
            // Every session stayed within its loop's window: none had to be caught up from the log again.
            #expect(Self.counter("goald_fanout_rejoins_total", in: daemon.metricsText()) == 0)
        }
    }

    @Test(
        "a batch that becomes durable mid-round reaches the sessions still ahead of the cursor in that round, before those already visited"
    )
    func midRoundBatchJoinsTheRound() async throws {
        let oneLoop: (inout ServerConfiguration) -> Void = { $0.eventLoopThreads = 1 }
        let gate = FanoutGate()
        // 48 subscribers are two slices of 24 (LoopShard.sliceSize); the gate holds the second until released. The
        // raw clients do not answer pings: a suite-wide busy machine must not turn the gate's waits into 4010.
        var limits = ServerLimits()
        limits.idleTimeoutMilliseconds = 600_000
        try await withTestDaemon(limits: limits, seams: DaemonSeams(fanoutGate: gate), configure: oneLoop) {
            daemon in
            var subscribers: [TestSession] = []
            for _ in 0..<48 { subscribers.append(try await TestSession.open(daemon, token: daemon.tokens.viewer)) }
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let (early, late) = (subscribers[0], subscribers[30])
            // Revision 1 starts a round: the first slice (subscribers 0–23) gets it at once.
            try await author.send(author.mutation(seq: 1, base: 0, Make.createPlayer("P1")))
            #expect(try await early.next(timeout: .seconds(120)).changesetRevision == 1)
            await gate.waitUntilHeld()
            // Revision 2 becomes durable while the round's second slice is held.
            try await author.send(author.mutation(seq: 2, base: 1, Make.createPlayer("P2")))
            try await Self.waitForDurableHead(2, daemon)
            gate.release()
            // Subscriber 30 (second slice of round 1) gets revision 2 in round 1...
            #expect(try await late.next().changesetRevision == 1)
            #expect(try await late.next().changesetRevision == 2)
            // ...while subscriber 0 gets it only in round 2, which waits for the gate.
            await gate.waitUntilHeld()
            gate.open()
            #expect(try await early.next().changesetRevision == 2)
            for index in [1, 23, 24, 47] {
                #expect(try await subscribers[index].next().changesetRevision == 1)
                #expect(try await subscribers[index].next().changesetRevision == 2)
            }
        }
    }

    /// Polls /healthz until the durable head reaches `revision`.
    static func waitForDurableHead(_ revision: Revision, _ daemon: TestDaemon) async throws {
        let connector = try daemon.connector()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let health = try await TestHTTPSClient.get(connector, path: "/healthz")
            if health.bodyText.contains("\"head\":\(revision),") { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the durable head did not reach \(revision)")
    }

    /// The value of a Prometheus counter in `text` (nil when absent).
    static func counter(_ name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == name { return Double(parts[1]) }
        }
        return nil
    }

    /// The `_sum` and `_count` of a Prometheus histogram in `text`.
    static func histogram(_ name: String, in text: String) -> (sum: Double, count: Double)? {
        var sum: Double?
        var count: Double?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            if parts[0] == "\(name)_sum" { sum = Double(parts[1]) }
            if parts[0] == "\(name)_count" { count = Double(parts[1]) }
        }
        guard let sum, let count else { return nil }
        return (sum, count)
    }
}
