import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import Testing

/// Two GoalClients against one in-process goald over real TLS: what one commits reaches the other's view
/// models as the right `RowChanges`, without a refresh.
@MainActor
@Suite("Live: commits reach other clients' view models", .serialized, .slotted)
struct LiveSharingTests {
    let league = SmallLeague()

    @Test("an edit, a new match and a delete in A reach B's match list as RowChanges")
    func editsReachTheOtherViewModel() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-share-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-share-b")
            let (matchesA, _) = try await alice.loadedMatches()
            let (matchesB, changesB) = try await bob.loadedMatches()
            #expect(matchesB.rows.map(\.result) == ["0 : 0", "2 : 1"])
            #expect(matchesB.homePlayers(at: 0) == "Ann, Cat")
            #expect(matchesB.awayPlayers(at: 1) == "Cat, Dan")

            // A edits the newer match (row 0) in its form: B's row 0 is modified.
            let edit = matchesA.editViewModel(for: matchesA.rows[0].id)
            #expect(edit.base == league.head)
            edit.homeGoals.value = 3
            let saved = Outcome(edit.saveAction.apply())
            try await pollUntil("A's save") { saved.isFinished }
            #expect(saved.values.map(\.revision) == [league.head + 1])
            try await bob.waitForRevision(league.head + 1)
            try await pollUntil("B's row 0 to show 3 : 0") { matchesB.result(at: 0) == "3 : 0" }
            #expect(changesB.take() == [RowChanges(modifications: [0])])

            // A creates a match: it is inserted at the top of B's list.
            let new = matchesA.editViewModelForNewMatch()
            let home = new.manageHomePlayersViewModel()
            home.active.value = true
            try await pollUntil("A's picker to load") { home.numberOfPlayers(inSection: 0) == 4 }
            home.selectPlayer(home.rows[1].id)  // Ben
            let away = new.manageAwayPlayersViewModel()
            away.active.value = true
            try await pollUntil("A's away picker to load") { away.numberOfPlayers(inSection: 0) == 4 }
            #expect(away.canSelectPlayer(at: 1) == false, "Ben plays at home")
            away.selectPlayer(away.rows[3].id)  // Dan
            new.awayGoals.value = 4
            #expect(new.inputIsValid.value)
            let created = Outcome(new.saveAction.apply())
            try await pollUntil("A's new match") { created.isFinished }
            #expect(created.error == nil)
            try await bob.waitForRevision(league.head + 2)
            try await pollUntil("B's list to grow") { matchesB.numberOfMatches(inSection: 0) == 3 }
            #expect(changesB.take() == [RowChanges(insertions: [0])])
            #expect(
                [matchesB.homePlayers(at: 0), matchesB.awayPlayers(at: 0), matchesB.result(at: 0)] == [
                    "Ben", "Dan", "0 : 4",
                ]
            )

            // B deletes the oldest match (row 2): A's list loses its row 2.
            let changesA = Recorder(matchesA.contentChanges)
            let deleted = Outcome(matchesB.deleteAction.apply(matchesB.shownMatch(at: 2)))
            try await pollUntil("B's delete") { deleted.isFinished }
            #expect(deleted.error == nil)
            try await alice.waitForRevision(league.head + 3)
            try await pollUntil("A's list to shrink") { matchesA.numberOfMatches(inSection: 0) == 2 }
            #expect(changesA.take() == [RowChanges(deletions: [2])])
            #expect(matchesA.rows.map(\.id) == matchesB.rows.map(\.id))
            #expect(alice.store.replica.value.digest == bob.store.replica.value.digest)
        }
    }

    @Test("a result that re-orders the rankings reaches the other client as a move")
    func rankingsMoveLive() async throws {
        try await withLiveHarness(storage: try league.storage()) { harness in
            let daemon = try harness.running()
            let alice = try await harness.connectedStack(token: daemon.tokens.editor, instance: "live-rank-a")
            let bob = try await harness.connectedStack(token: daemon.tokens.editor2, instance: "live-rank-b")
            let rankings = RankingsViewModel(store: bob.store)
            let changes = Recorder(rankings.contentChanges)
            rankings.active.value = true
            try await pollUntil("B's rankings to load") { !changes.values.isEmpty && !rankings.isLoading.value }
            _ = changes.take()
            let before = rankings.rows.map(\.id)
            // Ann and Ben won 2 : 1 (draw 0 : 0 too): Ann 4 pts / 2, Ben 4 / 2, Cat 1 / 2, Dan 1 / 2.
            #expect(rankings.rows.map(\.name) == ["Ann", "Ben", "Cat", "Dan"])
            #expect(rankings.rows.map(\.rating) == ["6.67", "6.67", "1.67", "1.67"])

            // Cat and Dan win the older match 2 : 5 now: Cat and Dan 4 / 2, Ann and Ben 1 / 2.
            let answer = Outcome(
                alice.store.submit(.updateMatch(id: league.older, MatchUpdate(awayGoals: 5)), base: league.head)
            )
            try await pollUntil("A's update") { answer.isFinished }
            #expect(answer.error == nil)
            try await bob.waitForRevision(league.head + 1)
            try await pollUntil("B's rankings to re-order") { rankings.rows.first?.name == "Cat" }
            #expect(rankings.rows.map(\.name) == ["Cat", "Dan", "Ann", "Ben"])
            #expect(rankings.rows.map(\.rating) == ["6.67", "6.67", "1.67", "1.67"])
            let recorded = changes.take()
            #expect(recorded.count == 1)
            let change = try #require(recorded.first)
            #expect(change.moves.count == 2, "two rows keep their order, two move")
            #expect(change.modifications == [0, 1, 2, 3], "every rating changed")
            #expect(change.insertions.isEmpty && change.deletions.isEmpty)
            let after = rankings.rows.map(\.id)
            #expect(change.applied(to: before, new: after) == after)
        }
    }
}
