import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import Testing

/// Concurrent edits by two GoalClients through their edit forms, against a real goald: one field written by
/// both → exactly one conflict alert; a form opened before another client's change → conflict even after that
/// change was applied (no lost update); disjoint fields → both apply; increments of one side all count.
@MainActor
@Suite("Live: concurrent edits and conflicts", .serialized, .slotted)
struct LiveConflictTests {
    let league = SmallLeague()

    @Test("two clients set the same field at once: one commits, the other gets exactly one conflict alert")
    func concurrentEditsOfOneField() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-same-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-same-b")
            let formA = EditMatchViewModel(store: alice.store, matchID: league.newer)
            let formB = EditMatchViewModel(store: bob.store, matchID: league.newer)
            let alerts = (a: Recorder(formA.conflictAlerts), b: Recorder(formB.conflictAlerts))
            let messages = (a: Recorder(formA.alertMessages), b: Recorder(formB.alertMessages))
            formA.homeGoals.value = 5
            formB.homeGoals.value = 7
            #expect(formA.pendingUpdate == MatchUpdate(homeGoals: 5))
            // Both saves start before either answer can arrive (no suspension in between).
            let savedA = Outcome(formA.saveAction.apply())
            let savedB = Outcome(formB.saveAction.apply())
            try await pollUntil("both saves to finish") { savedA.isFinished && savedB.isFinished }

            let outcomes = [savedA, savedB]
            #expect(outcomes.filter(\.completed).count == 1, "exactly one save commits")
            #expect(outcomes.compactMap(\.mutationError).map(\.code) == [.conflict])
            let allAlerts = alerts.a.take() + alerts.b.take()
            #expect(allAlerts.count == 1, "exactly one conflict alert")
            #expect((messages.a.take() + messages.b.take()).count == 1, "and no other alert")
            let winner = savedA.completed ? 5 : 7
            let alert = try #require(allAlerts.first)
            #expect(alert.fields == ["home goals"])
            #expect(alert.currentValues == ["home goals: \(winner)"])
            #expect(alert.message.contains("home goals"))

            try await alice.waitForRevision(league.head + 1)
            try await bob.waitForRevision(league.head + 1)
            #expect(alice.store.replica.value.matches[league.newer]?.homeGoals == winner)
            #expect(bob.store.replica.value.matches[league.newer]?.homeGoals == winner)
            #expect(try daemon.storage.recover().head == league.head + 1, "the loser committed nothing")
        }
    }

    @Test("B applies A's change, then saves a form opened before it: conflict, A's value survives")
    func staleFormConflictsAfterApplyingTheChange() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-stale-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-stale-b")
            let (matchesB, changesB) = try await bob.loadedMatches()
            let formB = matchesB.editViewModel(for: matchesB.rows[1].id)  // the older match, 2 : 1
            #expect(formB.base == league.head)
            let alertsB = Recorder(formB.conflictAlerts)
            let messagesB = Recorder(formB.alertMessages)

            let formA = EditMatchViewModel(store: alice.store, matchID: league.older)
            formA.awayGoals.value = 4
            let savedA = Outcome(formA.saveAction.apply())
            try await pollUntil("A's save") { savedA.isFinished }
            #expect(savedA.values.map(\.revision) == [league.head + 1])

            // B has applied A's change: its list shows it, its replica is at the new revision.
            try await bob.waitForRevision(league.head + 1)
            try await pollUntil("B's list to show 2 : 4") { matchesB.result(at: 1) == "2 : 4" }
            #expect(changesB.take() == [RowChanges(modifications: [1])])
            #expect(formB.awayGoals.value == 1, "an open form keeps the values it read")

            formB.awayGoals.value = 3
            let savedB = Outcome(formB.saveAction.apply())
            try await pollUntil("B's save") { savedB.isFinished }
            #expect(savedB.mutationError?.code == .conflict)
            #expect(savedB.mutationError?.rejection?.fields == [MatchField.awayGoals.rawValue])
            let alert = try #require(alertsB.take().first)
            #expect(alert.currentValues == ["away goals: 4"])
            #expect(messagesB.take() == [alert.message])

            let durable = try daemon.storage.recover()
            #expect(durable.head == league.head + 1)
            #expect(durable.state.match(league.older)?.awayGoals == 4, "A's update is not lost")
            #expect(bob.store.replica.value.matches[league.older]?.awayGoals == 4)
        }
    }

    @Test("disjoint edits from forms opened at the same revision both apply")
    func disjointEditsBothApply() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-disjoint-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-disjoint-b")
            let (matchesB, changesB) = try await bob.loadedMatches()
            let formA = EditMatchViewModel(store: alice.store, matchID: league.newer)
            let formB = EditMatchViewModel(store: bob.store, matchID: league.newer)
            let messages = (a: Recorder(formA.alertMessages), b: Recorder(formB.alertMessages))
            formA.homeGoals.value = 4
            formB.awayGoals.value = 6
            let savedA = Outcome(formA.saveAction.apply())
            let savedB = Outcome(formB.saveAction.apply())
            try await pollUntil("both saves to finish") { savedA.isFinished && savedB.isFinished }
            #expect(savedA.completed && savedB.completed)
            #expect(Set((savedA.values + savedB.values).map(\.revision)) == [league.head + 1, league.head + 2])
            #expect(messages.a.take().isEmpty && messages.b.take().isEmpty)

            try await alice.waitForRevision(league.head + 2)
            try await bob.waitForRevision(league.head + 2)
            try await pollUntil("B's row 0 to show 4 : 6") { matchesB.result(at: 0) == "4 : 6" }
            // B's row 0 is redrawn for each commit and while B's own save is pending; nothing else moves.
            let redraws = changesB.take()
            #expect(!redraws.isEmpty)
            #expect(redraws.allSatisfy { $0 == RowChanges(modifications: [0]) })
            #expect(alice.store.replica.value.matches[league.newer] == bob.store.replica.value.matches[league.newer])
            #expect(alice.store.replica.value.digest == bob.store.replica.value.digest)
            #expect(try daemon.storage.recover().headDigest == bob.store.replica.value.digest)
        }
    }
    @Test("increments of one side from two clients at once both count")
    func concurrentIncrementsBothCount() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-incr-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-incr-b")
            let formA = EditMatchViewModel(store: alice.store, matchID: league.older)
            let formB = EditMatchViewModel(store: bob.store, matchID: league.older)
            let messages = (a: Recorder(formA.alertMessages), b: Recorder(formB.alertMessages))
            let plusTwo = Outcome(formA.adjustGoalsAction.apply((.home, 2)))
            let plusThree = Outcome(formB.adjustGoalsAction.apply((.home, 3)))
            try await pollUntil("both increments to be answered") { plusTwo.isFinished && plusThree.isFinished }
            #expect(plusTwo.completed && plusThree.completed)
            #expect(messages.a.take().isEmpty && messages.b.take().isEmpty)
            try await alice.waitForRevision(league.head + 2)
            try await bob.waitForRevision(league.head + 2)
            #expect(alice.store.replica.value.matches[league.older]?.homeGoals == 7, "2 + 2 + 3")
            #expect(bob.store.replica.value.matches[league.older]?.homeGoals == 7)
            #expect(try daemon.storage.recover().state.match(league.older)?.homeGoals == 7)
            #expect(formA.homeGoals.value == 4 && formB.homeGoals.value == 5, "each form adds its own increment")
        }
    }
}
