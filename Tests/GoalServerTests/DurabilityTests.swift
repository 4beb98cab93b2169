import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("durability: failed writes, restarts, exactly once across reconnects", .slotted)
struct DurabilityTests {
    @Test("a store that fails the 4th batch stops the daemon with an error, and nothing of that batch was sent")
    func failedBatchStopsTheDaemon() async throws {
        let storage = FaultInjectingStorage(wrapping: InMemoryLeagueStorage(), plan: .onlyAppend(4))
        let daemon = try await TestDaemon.start(storage: storage)
        let watcher = try await TestSession.open(daemon, token: daemon.tokens.viewer)
        let writer = try await TestSession.open(daemon, token: daemon.tokens.editor)
        // One mutation at a time: each is its own batch, so the 4th batch is the 4th mutation.
        for seq in UInt64(1)...3 {
            let answer = try await writer.commit(seq: seq, base: 0, Make.createPlayer("P\(seq)"))
            #expect(answer.last == .ack(seq: seq, revision: seq, noop: false))
        }
        try await writer.send(writer.mutation(seq: 4, base: 0, Make.createPlayer("P4")))
        let ended = await daemon.waitUntilFinished()
        guard case .failure = ended else {
            Issue.record("run() returned normally after a failed batch write")
            return
        }
        let (writerMessages, writerClose) = try await writer.readUntilClosed()
        let (watcherMessages, watcherClose) = try await watcher.readUntilClosed()
        #expect(!writerMessages.contains { $0.isAck(seq: 4) || $0.changesetRevision == 4 })
        #expect(watcherMessages.compactMap(\.changesetRevision) == [1, 2, 3])
        #expect(writerMessages.last?.errorCode == .internalError)
        #expect(writerClose == 4000)
        #expect(watcherClose == 4000)
    }

    @Test("an edit form opened before a restart still conflicts with a change made after it")
    func conflictAcrossRestart() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory()
        let path = directory + "/goald.sqlite"
        let match = MatchID()
        let (ada, bea) = (PlayerID(), PlayerID())
        do {
            let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor)
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            _ = try await alice.commit(seq: 3, base: 2, Make.createMatch(id: match, home: [ada], away: [bea]))
            try await daemon.stop().get()
        }
        do {
            let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
            let bob = try await TestSession.open(daemon, token: daemon.tokens.editor2, since: 3)
            let bobs = try await bob.commit(seq: 1, base: 3, .updateMatch(id: match, MatchUpdate(awayGoals: 2)))
            #expect(bobs.last == .ack(seq: 1, revision: 4, noop: false))
            try await daemon.stop().get()
        }
        let daemon = try await TestDaemon.start(storage: try SQLiteLeagueStorage(path: path))
        // Alice's form was opened at revision 3, before Bob's change and before two restarts.
        let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, since: 3)
        let answer = try await alice.commit(seq: 4, base: 3, .updateMatch(id: match, MatchUpdate(awayGoals: 5)))
        guard case .rejected(4, let rejection) = answer.last else {
            Issue.record("got \(String(describing: answer.last))")
            await daemon.stop()
            return
        }
        #expect(rejection.code == .conflict)
        #expect(rejection.fields == ["away_goals"])
        // A disjoint edit from the same old base still applies.
        let disjoint = try await alice.commit(seq: 5, base: 3, .updateMatch(id: match, MatchUpdate(homeGoals: 1)))
        #expect(disjoint.last == .ack(seq: 5, revision: 5, noop: false))
        try await daemon.stop().get()
    }

    @Test("a mutation re-sent after its connection dropped before the ack is answered from the exactly-once table")
    func resendAfterDrop() async throws {
        try await withTestDaemon { daemon in
            let instance = ClientInstanceID.random()
            let first = try await TestSession.open(
                daemon,
                token: daemon.tokens.editor,
                instance: instance,
                stream: .acks
            )
            let ada = Make.createPlayer("Ada")
            try await first.send(first.mutation(seq: 1, base: 0, ada))
            await first.client.disconnect()  // the ack may or may not have been written; the client never read it
            // Wait until it is durable, then re-send the same id on a new connection.
            try await pollUntil("revision 1 durable") { try daemon.storage.logBounds().head == 1 }
            let second = try await TestSession.open(
                daemon,
                token: daemon.tokens.editor,
                instance: instance,
                stream: .acks
            )
            let answer = try await second.commit(seq: 1, base: 0, ada)
            #expect(answer.last == .ack(seq: 1, revision: 1, noop: false))
            // Same id, different payload: id_reused.
            let reused = try await second.commit(seq: 1, base: 0, Make.createPlayer("Not Ada"))
            guard case .rejected(1, let rejection) = reused.last else {
                Issue.record("got \(String(describing: reused.last))")
                return
            }
            #expect(rejection.code == .idReused)
            #expect(try daemon.storage.logBounds().head == 1)
        }
    }
}

/// A test process or daemon did not reach the awaited state in time.
struct WaitTimeout: Error {}
