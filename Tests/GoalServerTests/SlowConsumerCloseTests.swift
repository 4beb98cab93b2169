import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Issue 14 point 3: the slow-consumer policy as PROTOCOL.md §7 documents it, from a real TLS socket.
@Suite("slow consumers, as documented", .slotted)
struct SlowConsumerCloseTests {
    /// A league whose every goal change is a changeset of several KB: `players` players, one match of half a
    /// side each, then `goals` goal changes. Returns the head.
    static func bigChangesets(_ daemon: TestDaemon, players count: Int, goals: Int) async throws -> Revision {
        let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
        let players = (0..<count).map { _ in PlayerID() }
        for (index, player) in players.enumerated() {
            try await writer.send(
                writer.mutation(seq: UInt64(index + 1), base: 0, Make.createPlayer("p\(index)", id: player))
            )
        }
        _ = try await writer.collect(timeout: .seconds(60)) { $0.isAck(seq: UInt64(count)) }
        let match = MatchID()
        let matchSeq = UInt64(count + 1)
        _ = try await writer.commit(
            seq: matchSeq,
            base: Revision(count),
            Make.createMatch(id: match, home: Array(players[..<(count / 2)]), away: Array(players[(count / 2)...]))
        )
        for index in 0..<goals {
            try await writer.send(
                writer.mutation(
                    seq: matchSeq + 1 + UInt64(index),
                    base: Revision(matchSeq),
                    .adjustGoals(id: match, side: index % 2 == 0 ? .home : .away, delta: 1)
                )
            )
        }
        let answers = try await writer.collect(timeout: .seconds(60)) { $0.isAck(seq: matchSeq + UInt64(goals)) }
        #expect(answers.allSatisfy { $0.isAck })
        return Revision(matchSeq) + Revision(goals)
    }

    /// A 64 KiB bound, the slow-consumer grace given, no mutation rate limit (the writer pipelines hundreds), and an
    /// idle timeout far beyond the test.
    static func limits(grace milliseconds: Int = 5_000) -> ServerLimits {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 64 * 1024
        limits.slowConsumerAbortMilliseconds = milliseconds
        limits.mutationsPerSecond = 1_000_000
        limits.mutationBurst = 1_000_000
        // The stalled reader does not read, so it answers no ping; on a machine busy with the rest of the suite the
        // writer's 300 big commits took longer than the 40 s idle timeout (seen in CI: closed for idleness before
        // the bound was ever reached). These tests are about 4008 and the abort, not 4010.
        limits.idleTimeoutMilliseconds = 600_000
        return limits
    }

    /// A viewer with a 4 KiB receive window that has stopped reading.
    static func stalledReader(_ daemon: TestDaemon) async throws -> TestSession {
        var tinyWindow = try daemon.connector()
        tinyWindow.receiveBufferSize = 4_096
        let stalled = try await TestSession.open(daemon, token: daemon.tokens.viewer, connector: tinyWindow)
        try await stalled.client.pauseReading()
        return stalled
    }

    @Test("a resume over a backlog far bigger than the bound is not a slow consumer: caught_up, then live")
    func backlogDoesNotCount() async throws {
        try await withTestDaemon(limits: Self.limits()) { daemon in
            // 300 changesets of ~25 KB each: a backlog over a hundred times the bound, and bigger than the kernel's
            // socket buffers.
            let head = try await Self.bigChangesets(daemon, players: 200, goals: 300)
            var tinyWindow = try daemon.connector()
            tinyWindow.receiveBufferSize = 4_096
            let resumed = try await TestSession.open(
                daemon,
                token: daemon.tokens.viewer,
                connector: tinyWindow,
                since: 0,
                epoch: nil,
                digest: .genesis
            )
            #expect(resumed.welcome.mode == .backlog)
            let backlog = try await resumed.collect { if case .caughtUp = $0 { true } else { false } }
            #expect(backlog.compactMap(\.changesetRevision) == Array(1...head))
            // Live afterwards: the next commit arrives, and no slow-consumer close came or comes.
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: head, Make.createPlayer("late"))
            let live = try await resumed.next()
            #expect(live.changesetRevision == head + 1)
            #expect(daemon.metric("goald_slow_consumer_closes_total") == 0)
        }
    }

    @Test(
        "a live reader over the bound gets error{slow_consumer} and the 4008 close frame after what was in the socket"
    )
    func liveOverflowGets4008() async throws {
        try await withTestDaemon(limits: Self.limits(grace: 30_000)) { daemon in
            let stalled = try await Self.stalledReader(daemon)
            let writing = Task { try await Self.bigChangesets(daemon, players: 200, goals: 300) }
            try await daemon.waitForMetric("goald_slow_consumer_closes_total", atLeast: 1, timeout: .seconds(120))
            try await stalled.client.resumeReading()  // well within the grace (30 s here)
            let (messages, code) = try await stalled.readUntilClosed()
            #expect(code == 4008)
            #expect(messages.last?.errorCode == .slowConsumer)
            let revisions = messages.compactMap(\.changesetRevision)
            #expect(revisions == Array(1...(revisions.last ?? 0)), "a gap before the cut")
            let head = try await writing.value
            #expect((revisions.last ?? 0) <= head)
        }
    }

    @Test("a stalled reader over the bound is aborted (reset, no TLS close handshake to wait for) after the grace")
    func stalledReaderIsAborted() async throws {
        try await withTestDaemon(limits: Self.limits(grace: 1_000)) { daemon in
            let stalled = try await Self.stalledReader(daemon)
            _ = try await Self.bigChangesets(daemon, players: 200, goals: 300)
            try await daemon.waitForMetric("goald_slow_consumer_closes_total", atLeast: 1, timeout: .seconds(120))
            // The stalled client never reads again. A graceful close would wait for its TLS close_notify (5 s past
            // the grace) and end with a FIN behind the unread bytes; an abort resets the connection, which the
            // client's socket reports even while it is not reading.
            var ending: TestWebSocketClient.Received?
            while ending == nil {
                let received = try await stalled.client.next(timeout: .seconds(30))
                if case .closed = received { ending = received }
            }
            guard case .closed(let code, let reason) = ending else { return }
            #expect(code == nil)
            #expect(reason.contains("reset"), "ended with \(reason)")
        }
    }
}
