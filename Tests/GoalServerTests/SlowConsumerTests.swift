import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import NIOCore
import Testing

@Suite("slow consumers", .slotted)
struct SlowConsumerTests {
    @Test("a stalled reader is cut off (4008 or abort), resumes with no gap, and others keep receiving throughout")
    func stalledReader() async throws {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 32 * 1024
        limits.slowConsumerAbortMilliseconds = 1_000
        limits.mutationsPerSecond = 1_000_000
        limits.mutationBurst = 1_000_000
        // The test's raw clients do not answer pings, and the writer waits for 300 big commits: on a machine busy
        // with the rest of the suite that took longer than the 40 s idle timeout. This test is about 4008.
        limits.idleTimeoutMilliseconds = 600_000
        try await withTestDaemon(limits: limits) { daemon in try await Self.stall(daemon) }
    }

    static func stall(_ daemon: TestDaemon) async throws {
        do {
            var stalled = ResumingSubscriber(token: daemon.tokens.viewer)
            var tinyWindow = try daemon.connector()
            tinyWindow.receiveBufferSize = 4_096
            let stalledSession = try await TestSession.open(
                daemon,
                token: stalled.token,
                connector: tinyWindow,
                instance: stalled.instance,
                since: 0
            )
            try await stalledSession.client.pauseReading()

            var healthy = ResumingSubscriber(token: daemon.tokens.viewer)
            let healthySession = try await healthy.session(daemon)

            // Big changesets: a 200-a-side match whose every goal change re-sends the match and 400 ratings (~50 KB),
            // so a few hundred of them outgrow the socket buffers on both ends.
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let players = (0..<400).map { _ in PlayerID() }
            for (index, player) in players.enumerated() {
                try await writer.send(
                    writer.mutation(seq: UInt64(index + 1), base: 0, Make.createPlayer("p\(index)", id: player))
                )
            }
            _ = try await writer.collect(timeout: .seconds(60)) { $0.isAck(seq: 400) }
            let match = MatchID()
            _ = try await writer.commit(
                seq: 401,
                base: 400,
                Make.createMatch(id: match, home: Array(players[..<200]), away: Array(players[200...]))
            )
            let goals = 300
            for index in 0..<goals {
                let seq = UInt64(402 + index)
                try await writer.send(
                    writer.mutation(
                        seq: seq,
                        base: 401,
                        .adjustGoals(id: match, side: index % 2 == 0 ? .home : .away, delta: 1)
                    )
                )
            }
            let answers = try await writer.collect(timeout: .seconds(60)) { $0.isAck(seq: UInt64(401 + goals)) }
            #expect(answers.allSatisfy { $0.isAck })
            let total = Revision(401 + goals)
            // A reader that keeps up receives everything; on a machine too busy for it to keep up it is cut off too
            // (4008, or the reset after the grace when it read too late for the close frame, as for the stalled
            // reader), and then it resumes — either way every revision arrives exactly once.
            var session = healthySession
            while true {
                do {
                    try await healthy.follow(session, to: total)
                    break
                } catch TestSessionError.closed(code: 4008, _), TestSessionError.closed(code: nil, _) {
                    session = try await healthy.session(daemon)
                }
            }
            #expect(healthy.received == Array(1...total))

            // The stalled client reads again: what was in the socket, then the slow-consumer close (or the abort).
            // Past the grace the server has reset the connection, and the client finds its channel closed.
            do {
                try await stalledSession.client.resumeReading()
            } catch ChannelError.ioOnClosedChannel {
                // The reset arrived first: the inbox ends with `.closed` all the same.
            }
            var closed = false
            var closeCode: UInt16?
            while !closed {
                let received = try await stalledSession.client.next(timeout: .seconds(20))
                switch received {
                case .text(let bytes): try stalled.apply(try ServerMessage.decode(bytes))
                case .closed(let code, _):
                    closed = true
                    closeCode = code
                default: continue
                }
            }
            #expect(closeCode == 4008 || closeCode == nil, "closed with \(String(describing: closeCode))")
            // The kernel may have taken everything before the cut (its buffers are not under the test's control);
            // the cut itself and the gap-free resume below are what must hold.
            let closes = daemon.metricsText().split(separator: "\n")
                .first { $0.hasPrefix("goald_slow_consumer_closes_total ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }
            #expect((closes ?? 0) >= 1, "goald_slow_consumer_closes_total = \(String(describing: closes))")

            let resumed = try await stalled.session(daemon)
            #expect(resumed.welcome.mode == (stalled.revision < total ? .backlog : .live))
            try await stalled.follow(resumed, to: total)
            #expect(stalled.received == Array(1...total))
        }
    }
}
