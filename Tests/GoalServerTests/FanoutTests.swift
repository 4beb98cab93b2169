import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("live fan-out and conflicts between sockets", .slotted)
struct FanoutTests {
    @Test("one client mutates; every other client receives the changeset; the author gets changeset then ack")
    func fanout() async throws {
        try await withTestDaemon { daemon in
            let watchers = try await withThrowingTaskGroup(of: TestSession.self) { group in
                for _ in 0..<5 { group.addTask { try await TestSession.open(daemon, token: daemon.tokens.viewer) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let author = try await TestSession.open(daemon, token: daemon.tokens.editor)
            let answer = try await author.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            #expect(answer.count == 2)
            #expect(answer.first?.changesetRevision == 1)
            #expect(answer.last == .ack(seq: 1, revision: 1, noop: false))
            for watcher in watchers {
                let message = try await watcher.next()
                guard case .changeset(let changeset) = message else {
                    Issue.record("watcher got \(message)")
                    continue
                }
                #expect(changeset.revision == 1)
                #expect(changeset.author == "alice")
                #expect(ChangesetFrame.verify(changeset, previousDigest: .genesis))
            }
        }
    }

    @Test("conflicting edits from two sockets: one ack, one conflict carrying the current entity")
    func conflictBetweenSockets() async throws {
        try await withTestDaemon { daemon in
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor)
            let (ada, bea, cy) = (PlayerID(), PlayerID(), PlayerID())
            let match = MatchID()
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            _ = try await alice.commit(seq: 3, base: 2, Make.createPlayer("Cy", id: cy))
            let made = try await alice.commit(seq: 4, base: 3, Make.createMatch(id: match, home: [ada], away: [bea]))
            #expect(made.last == .ack(seq: 4, revision: 4, noop: false))

            let bob = try await TestSession.open(daemon, token: daemon.tokens.editor2, since: 4)
            // Both read at revision 4 and set the home goals to different values.
            let first = try await alice.commit(seq: 5, base: 4, .updateMatch(id: match, MatchUpdate(homeGoals: 3)))
            #expect(first.last == .ack(seq: 5, revision: 5, noop: false))
            let second = try await bob.commit(seq: 1, base: 4, .updateMatch(id: match, MatchUpdate(homeGoals: 1)))
            guard case .rejected(1, let rejection) = second.last else {
                Issue.record("bob got \(String(describing: second.last))")
                return
            }
            #expect(rejection.code == .conflict)
            #expect(rejection.fields == ["home_goals"])
            guard case .match(let current) = rejection.current else {
                Issue.record("no current match in \(rejection)")
                return
            }
            #expect(current.homeGoals == 3)
            // Bob saw alice's changeset before his rejection.
            #expect(second.contains { $0.changesetRevision == 5 })
        }
    }

    @Test("concurrent increments from two sockets all count")
    func concurrentIncrements() async throws {
        try await withTestDaemon { daemon in
            let alice = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let bob = try await TestSession.open(daemon, token: daemon.tokens.editor2, stream: .acks)
            let (ada, bea, match) = (PlayerID(), PlayerID(), MatchID())
            _ = try await alice.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: ada))
            _ = try await alice.commit(seq: 2, base: 1, Make.createPlayer("Bea", id: bea))
            _ = try await alice.commit(seq: 3, base: 2, Make.createMatch(id: match, home: [ada], away: [bea]))
            for seq in UInt64(4)...23 {
                try await alice.send(alice.mutation(seq: seq, base: 3, .adjustGoals(id: match, side: .home, delta: 1)))
            }
            for seq in UInt64(1)...20 {
                try await bob.send(bob.mutation(seq: seq, base: 3, .adjustGoals(id: match, side: .home, delta: 1)))
            }
            let aliceAnswers = try await alice.collect { $0.isAck(seq: 23) }
            let bobAnswers = try await bob.collect { $0.isAck(seq: 20) }
            #expect(aliceAnswers.allSatisfy { $0.isAck })
            #expect(bobAnswers.allSatisfy { $0.isAck })
            let state = try daemon.storage.recover().state
            #expect(state.match(match)?.homeGoals == 40)
            #expect(state.revision == 43)
        }
    }
}
