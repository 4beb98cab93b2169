import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Synchronization
import Testing

/// Issue 14 point 10, from a TLS socket: the exactly-once table is bounded by age and count, as PROTOCOL.md §6
/// says. The engine's clock is the test's (`DaemonSeams.clock`) and the sweep runs when the test asks.
@Suite("the exactly-once table is bounded by age and count", .slotted)
struct ClientRecordBoundTests {
    /// A clock the test moves; starts at 2027-01-15.
    final class ManualClock: Sendable {
        private let milliseconds = Mutex<Int64>(1_800_000_000_000)

        var now: Timestamp { Timestamp(millisecondsSince1970: milliseconds.withLock { $0 }) }

        func advance(days: Int64) {
            milliseconds.withLock { $0 += days * 86_400_000 }
        }
    }

    @Test("a record idle past its age is forgotten, in memory and in the store; one used since is kept")
    func idleRecordsAreForgotten() async throws {
        let clock = ManualClock()
        let sweep = ClientRecordSweep()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("goal-records-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // cleanup only; a leftover is harmless
        let storage = try SQLiteLeagueStorage(path: directory.appendingPathComponent("league.sqlite").path)
        let seams = DaemonSeams(clock: { clock.now }, clientRecordSweep: sweep)
        try await withTestDaemon(storage: storage, seams: seams) { daemon in
            let idle = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let active = try await TestSession.open(daemon, token: daemon.tokens.editor2, stream: .acks)
            let first = idle.mutation(seq: 1, base: 0, Make.createPlayer("Ada"))
            try await idle.send(first)
            #expect(try await idle.next() == .ack(seq: 1, revision: 1, noop: false))
            #expect(try storage.recover().state.clientRecord(for: idle.instance)?.lastUsed == clock.now)

            clock.advance(days: 20)
            try await active.send(active.mutation(seq: 1, base: 1, Make.createPlayer("Bea")))
            #expect(try await active.next() == .ack(seq: 1, revision: 2, noop: false))
            #expect(await sweep.run() == 0, "20 days idle is within the default 30")

            clock.advance(days: 11)
            #expect(await sweep.run() == 1, "idle: 31 days; active: 11")
            // The forget went to the store in the engine's next batch; this ack says that batch is durable.
            try await active.send(active.mutation(seq: 2, base: 2, Make.createPlayer("Cy")))
            #expect(try await active.next() == .ack(seq: 2, revision: 3, noop: false))
            let durable = try storage.recover()
            #expect(durable.state.clientRecord(for: idle.instance) == nil)
            #expect(durable.state.clientRecord(for: active.instance)?.lastUsed == clock.now)
            #expect(durable.state.clientRecord(for: active.instance)?.lastSeq == 2)

            // What a client's 7-day rule prevents: a forgotten instance's re-send is processed as new, so instead
            // of the original ack it meets its own player.
            try await idle.send(first)
            guard case .rejected(1, let rejection) = try await idle.next() else {
                Issue.record("a forgotten instance's re-send was not processed as new")
                return
            }
            #expect(rejection.code == .idTaken)
        }
    }

    @Test("a full table answers a new instance overloaded{seq}, serves known ones, and takes it once one is forgotten")
    func fullTableRefusesNewInstances() async throws {
        let clock = ManualClock()
        let sweep = ClientRecordSweep()
        let seams = DaemonSeams(clock: { clock.now }, clientRecordSweep: sweep)
        let smallTable: (inout ServerConfiguration) -> Void = { $0.clientRecords = ClientRecordPolicy(maximumCount: 2) }
        try await withTestDaemon(seams: seams, configure: smallTable) { daemon in
            let a = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let b = try await TestSession.open(daemon, token: daemon.tokens.editor2, stream: .acks)
            let c = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            try await a.send(a.mutation(seq: 1, base: 0, Make.createPlayer("Ada")))
            #expect(try await a.next() == .ack(seq: 1, revision: 1, noop: false))
            try await b.send(b.mutation(seq: 1, base: 1, Make.createPlayer("Bea")))
            #expect(try await b.next() == .ack(seq: 1, revision: 2, noop: false))

            let refused = c.mutation(seq: 1, base: 2, Make.createPlayer("Cy"))
            try await c.send(refused)
            #expect(try await c.next() == .overloaded(seq: 1, retryAfterMilliseconds: 60_000))
            #expect(try daemon.storage.logBounds().head == 2, "nothing applied")
            #expect(try daemon.storage.recover().state.clientRecord(for: c.instance) == nil, "and nothing recorded")

            try await a.send(a.mutation(seq: 2, base: 2, Make.createPlayer("Dee")))
            #expect(try await a.next() == .ack(seq: 2, revision: 3, noop: false), "a known instance goes on")

            clock.advance(days: 31)
            try await a.send(a.mutation(seq: 3, base: 3, Make.createPlayer("Eve")))
            #expect(try await a.next() == .ack(seq: 3, revision: 4, noop: false))
            #expect(await sweep.run() == 1, "b is forgotten; a was just used")
            try await c.send(refused)
            #expect(try await c.next() == .ack(seq: 1, revision: 5, noop: false), "the re-send, same id, is applied")
        }
    }
}
