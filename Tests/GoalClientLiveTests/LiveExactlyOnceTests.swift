import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import Testing

/// Mutations that cannot reach goald (it is down) or whose answer is lost are sent again after the reconnect
/// with the same id and committed exactly once: checked in the daemon's own durable log.
@MainActor
@Suite("Live: exactly once across reconnects", .serialized, .slotted)
struct LiveExactlyOnceTests {
    let league = SmallLeague()

    @Test("mutations made while goald is down are sent after it restarts and committed exactly once")
    func mutationsMadeWhileDisconnected() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("goal-live-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("league.sqlite").path
        let first = try SQLiteLeagueStorage(path: path)
        try league.write(to: first)

        try await withLiveHarness(storage: first) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-offline-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-offline-b")
            let (matchesA, _) = try await alice.loadedMatches()
            let (matchesB, changesB) = try await bob.loadedMatches()
            let connectionA = ConnectionViewModel(store: alice.store)
            #expect(connectionA.revisionText.value == "r\(league.head)")

            await harness.stopDaemon()
            try await pollUntil("both clients to lose the daemon") {
                !alice.store.status.value.isLive && !bob.store.status.value.isLive
            }

            // Offline, A adds two goals to the older match (row 1) and creates a match.
            let form = matchesA.editViewModel(for: matchesA.rows[1].id)
            let increment = Outcome(form.adjustGoalsAction.apply((.home, 2)))
            let created = MatchID()
            let creation = Outcome(
                alice.store.submit(
                    .createMatch(
                        id: created,
                        homePlayers: [league.cat],
                        awayPlayers: [league.ben],
                        homeGoals: 1,
                        awayGoals: 1
                    ),
                    base: league.head
                )
            )
            try await pollUntil("A's list to show both as pending") { matchesA.numberOfMatches(inSection: 0) == 3 }
            #expect(alice.store.pendingMutations.value.map(\.isSent) == [false, false])
            #expect(matchesA.rows.map(\.isPending) == [true, false, true], "new match on top, the older match pending")
            #expect(matchesA.rows.first?.id == created)
            #expect(alice.relay.sendCount(seq: 1) == 0 && alice.relay.sendCount(seq: 2) == 0)
            #expect(connectionA.pendingCount.value == 2)
            #expect(connectionA.roundTripText.value == "–")

            // goald comes back over the same database (on a new port, where the harness points both stacks).
            let restarted = try await harness.startDaemon(storage: try SQLiteLeagueStorage(path: path))
            try await pollUntil("A's mutations to be answered") { increment.isFinished && creation.isFinished }
            #expect(increment.values.map(\.revision) == [league.head + 1])
            #expect(creation.values.map(\.revision) == [league.head + 2])
            #expect(alice.relay.sendCount(seq: 1) == 1 && alice.relay.sendCount(seq: 2) == 1)
            try await pollUntil("A's pending marks to clear") { alice.store.pendingMutations.value.isEmpty }
            #expect(matchesA.rows.map(\.isPending) == [false, false, false])
            #expect(form.homeGoals.value == 4, "the form counts its own increment once")
            try await pollUntil("A's connection line to show the new revision") {
                connectionA.revisionText.value == "r\(league.head + 2)" && connectionA.status.value.isLive
            }
            #expect(connectionA.pendingCount.value == 0)

            // B, which saw nothing while goald was down, catches up.
            try await bob.waitForRevision(league.head + 2)
            try await pollUntil("B's list to show the new match") { matchesB.numberOfMatches(inSection: 0) == 3 }
            #expect(matchesB.rows.map(\.result) == ["1 : 1", "0 : 0", "4 : 1"])
            #expect(changesB.take().reduce(into: Set<Int>()) { $0.formUnion($1.insertions) } == [0])

            let storage = restarted.storage
            let log = try StoredLog(storage)
            let instance = alice.client.clientInstance
            #expect(log.commits(of: MutationID(instance: instance, seq: 1)).map(\.revision) == [league.head + 1])
            #expect(log.commits(of: MutationID(instance: instance, seq: 2)).map(\.revision) == [league.head + 2])
            let durable = try storage.recover()
            #expect(durable.head == league.head + 2)
            #expect(durable.state.match(league.older)?.homeGoals == 4, "the increment counted once")
            #expect(durable.state.clientRecord(for: instance)?.lastSeq == 2)
        }
    }

    @Test("an increment whose ack is lost is sent again with the same id and counted once")
    func lostAckIsResentAndCountedOnce() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-lostack-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-lostack-b")
            let updatesB = Recorder(bob.store.updates)
            let form = EditMatchViewModel(store: alice.store, matchID: league.older)

            alice.relay.loseNextAck()
            let increment = Outcome(form.adjustGoalsAction.apply((.away, 3)))
            try await pollUntil("the increment's answer") { increment.isFinished }
            #expect(increment.values.map(\.revision) == [league.head + 1])
            #expect(alice.relay.inboundCount("lost_ack") == 1, "the first ack was lost")
            #expect(alice.relay.sendCount(seq: 1) == 2, "sent again after the reconnect, with the same id")
            #expect(form.awayGoals.value == 4)

            try await bob.waitForRevision(league.head + 1)
            #expect(updatesB.take().map(\.revision) == [league.head + 1])
            let log = try StoredLog(daemon.storage)
            let id = MutationID(instance: alice.client.clientInstance, seq: 1)
            #expect(log.commits(of: id).count == 1)
            #expect(log.changesets.count == Int(league.head) + 1)
            #expect(try daemon.storage.recover().state.match(league.older)?.awayGoals == 4, "counted once")
            #expect(alice.store.replica.value.matches[league.older]?.awayGoals == 4)
        }
    }
}
