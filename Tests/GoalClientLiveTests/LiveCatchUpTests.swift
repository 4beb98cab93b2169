import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import Testing

/// A GoalClient cut off while others edit resumes from its revision over a real goald and its view models
/// receive the right `RowChanges` for everything it missed.
@MainActor
@Suite("Live: catching up after a disconnection", .serialized, .slotted)
struct LiveCatchUpTests {
    let league = SmallLeague()

    @Test("a client cut off by the network catches up by backlog and its list gets the right RowChanges")
    func partitionedClientCatchesUp() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-catchup-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-catchup-b")
            let (matchesB, changesB) = try await bob.loadedMatches()
            let updatesB = Recorder(bob.store.updates)
            let rowsBefore = matchesB.rows.map(\.id)

            bob.relay.partition()
            try await pollUntil("B to notice the lost connection") { !bob.store.status.value.isLive }

            // While B is away, A edits row 0, creates a match and deletes the older match (row 1).
            let third = MatchID()
            let actions: [MutationAction] = [
                .updateMatch(id: league.newer, MatchUpdate(homeGoals: 1, awayGoals: 2)),
                .createMatch(
                    id: third,
                    homePlayers: [league.dan],
                    awayPlayers: [league.ann],
                    homeGoals: 9,
                    awayGoals: 0
                ),
                .deleteMatch(id: league.older),
            ]
            for (offset, action) in actions.enumerated() {
                let answer = Outcome(alice.store.submit(action, base: league.head + Revision(offset)))
                try await pollUntil("A's mutation \(offset + 1)") { answer.isFinished }
                #expect(answer.values.map(\.revision) == [league.head + Revision(offset) + 1])
            }
            #expect(changesB.take().isEmpty, "B saw nothing while cut off")
            #expect(updatesB.take().isEmpty)
            #expect(bob.store.replica.value.revision == league.head)

            bob.relay.heal()
            try await bob.waitForRevision(league.head + 3)
            try await bob.waitUntilLive()
            try await pollUntil("B's list to redraw") { !changesB.values.isEmpty }
            #expect(updatesB.take().map(\.revision) == [league.head + 1, league.head + 2, league.head + 3])
            #expect(bob.relay.inboundCount("caught_up") == 1, "resumed by backlog, not by a snapshot")
            #expect(bob.relay.inboundCount("snapshot_begin") == 1, "only the first connection took a snapshot")

            // Old [newer, older] → new [third, newer']: the older match deleted at old 1, the newer one
            // modified at old 0, the third inserted at new 0; the newer one keeps its order, so no move.
            let changes = changesB.take()
            #expect(changes == [RowChanges(deletions: [1], modifications: [0], insertions: [0])])
            let rowsAfter = matchesB.rows.map(\.id)
            #expect(rowsAfter == [third, league.newer])
            #expect(changes.first?.applied(to: rowsBefore, new: rowsAfter) == rowsAfter)
            #expect(matchesB.rows.map(\.result) == ["9 : 0", "1 : 2"])
            #expect(bob.store.replica.value.digest == alice.store.replica.value.digest)
        }
    }

    @Test("a client stopped and started again catches up and its list gets the right RowChanges")
    func restartedClientCatchesUp() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-restart-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-restart-b")
            let (matchesB, changesB) = try await bob.loadedMatches()

            bob.client.stop()
            try await pollUntil("B to stop") { bob.store.status.value.isStopped }
            // A renames Ann: both of B's rows show her; then A swaps the older match's away side.
            for (offset, action) in [
                MutationAction.renamePlayer(id: league.ann, name: "Anna"),
                .updateMatch(id: league.older, MatchUpdate(awayPlayers: [league.dan, league.cat])),
            ].enumerated() {
                let answer = Outcome(alice.store.submit(action, base: league.head + Revision(offset)))
                try await pollUntil("A's mutation \(offset + 1)") { answer.isFinished }
                #expect(answer.error == nil)
            }
            #expect(changesB.take().isEmpty)

            bob.client.start()
            try await bob.waitForRevision(league.head + 2)
            try await bob.waitUntilLive()
            try await pollUntil("B's list to redraw") { !changesB.values.isEmpty }
            #expect(changesB.take() == [RowChanges(modifications: [0, 1])])
            #expect(matchesB.rows.map(\.homePlayers) == ["Anna, Cat", "Anna, Ben"])
            #expect(matchesB.awayPlayers(at: 1) == "Dan, Cat")
            #expect(bob.store.replica.value.digest == alice.store.replica.value.digest)
        }
    }
}
