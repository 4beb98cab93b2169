import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// Issue 14 point 2, from a TLS socket: every reply to a mutation carries its seq, `overloaded` included.
@Suite("overloaded names the mutation it refused", .slotted)
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

    @Test("while a write is held, the engine holds at most its capacity: later mutations get overloaded{seq}")
    func openBatchIsBounded() async throws {
        var limits = ServerLimits()
        limits.engineInboxCapacity = 5
        let storage = GatedStorage(wrapping: InMemoryLeagueStorage())
        try await withTestDaemon(storage: storage, limits: limits) { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            storage.close(.append)
            defer { storage.open(.append) }  // a failing test must not leave the daemon's thread held
            try await session.send(session.mutation(seq: 1, base: 0, Make.createPlayer("P1")))
            await storage.waitUntilHeld(.append)
            for seq in UInt64(2)...10 {
                try await session.send(session.mutation(seq: seq, base: 0, Make.createPlayer("P\(seq)")))
            }
            var overloaded: [UInt64] = []
            while overloaded.count < 5 {
                guard case .overloaded(let seq?, _) = try await session.next() else { continue }
                overloaded.append(seq)
            }
            #expect(overloaded == [6, 7, 8, 9, 10], "1 is being written, 2–5 wait in the open batch")
            storage.open(.append)
            let answers = try await session.collect { $0.isAck(seq: 5) }
            #expect(answers.filter(\.isAck).count == 5)
        }
    }
}
