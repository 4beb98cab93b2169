import GoalModel
import GoalServer
import GoalStore
import GoalTestSupport
import GoalWire
import Testing

/// Issue 14 point 2, from a TLS socket: every reply to a mutation carries its seq, `overloaded` included.
@Suite("overloaded names the mutation it refused")
struct OverloadedTests {
    @Test("a full engine inbox answers overloaded{seq, retry_after_ms} and applies nothing")
    func overloadedCarriesSeq() async throws {
        var limits = ServerLimits()
        limits.engineInboxCapacity = 0  // every mutation finds the inbox full
        try await withTestDaemon(limits: limits) { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            try await session.send(session.mutation(seq: 7, base: 0, Make.createPlayer("Ada")))
            let answer = try await session.next()
            #expect(answer == .overloaded(seq: 7, retryAfterMilliseconds: limits.overloadedRetryMilliseconds))
            #expect(try daemon.storage.logBounds().head == 0)
        }
    }
}
