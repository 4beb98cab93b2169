@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

@MainActor
@Suite("Two view-model stacks over one league see each other's commits live", .slotted)
struct LiveSharingTests {
    let mock = MockLeague()

    @Test func aCommitFromOneStackReachesTheOtherAsRowChangesWithoutARefresh() {
        let storeA = mock.store("stack-a")
        let storeB = mock.store("stack-b")
        let matchesA = MatchesViewModel(store: storeA)
        let matchesB = MatchesViewModel(store: storeB)
        let playersB = ManagePlayersViewModel(store: storeB)
        let changesA = Recorder(matchesA.contentChanges)
        let changesB = Recorder(matchesB.contentChanges)
        let playerChangesB = Recorder(playersB.contentChanges)
        for viewModel in [matchesA, matchesB] { viewModel.active.value = true }
        playersB.active.value = true
        _ = (changesA.take(), changesB.take(), playerChangesB.take())

        // A creates a match: B's list gets an insertion at the top.
        let edit = matchesA.editViewModelForNewMatch()
        let home = edit.manageHomePlayersViewModel()
        home.active.value = true
        home.selectPlayer(home.rows[3].id)  // D
        let away = edit.manageAwayPlayersViewModel()
        away.active.value = true
        away.selectPlayer(away.rows[0].id)  // A
        edit.homeGoals.value = 5
        _ = Outcome(edit.saveAction.apply())
        #expect(changesB.take() == [RowChanges(insertions: [0])])
        #expect(matchesB.rows.first.map { [$0.homePlayers, $0.awayPlayers, $0.result] } == ["D", "A", "5 : 0"])
        #expect(changesA.take() == [RowChanges(insertions: [0])])
        #expect(storeB.refreshCount == 2, "only the two activations refreshed (matches, players)")

        // B renames nobody but deletes the new match: A's list loses row 0.
        _ = Outcome(matchesB.deleteAction.apply(matchesB.shownMatch(at: 0)))
        #expect(changesA.take() == [RowChanges(deletions: [0])])
        #expect(matchesA.numberOfMatches(inSection: 0) == 2)

        // A renames player A to "Zed": B's match rows that show A are modified, and B's player list moves it.
        _ = Outcome(storeA.submit(.renamePlayer(id: mock.a, name: "Zed"), base: storeA.replica.value.revision))
        #expect(changesB.take().last == RowChanges(modifications: [0, 1]))
        #expect(matchesB.homePlayers(at: 0) == "C, Zed")
        let playerChange = playerChangesB.take()
        #expect(playerChange.count == 1)
        #expect(playerChange.first?.modifications == [0])
        #expect(playerChange.first?.moves == [RowMove(from: 0, to: 3)])
        #expect(playersB.rows.map(\.name) == ["B", "C", "D", "Zed"])

        // A refresh still works and finds nothing new.
        matchesB.refreshObserver.send(value: ())
        #expect(changesB.take() == [RowChanges()])
    }

    @Test func anInactiveViewModelCatchesUpWhenItBecomesActiveAgain() {
        let storeA = mock.store("stack-a")
        let storeB = mock.store("stack-b")
        let matchesB = MatchesViewModel(store: storeB)
        let changesB = Recorder(matchesB.contentChanges)
        matchesB.active.value = true
        matchesB.active.value = false
        _ = changesB.take()
        _ = Outcome(storeA.submit(.deleteMatch(id: mock.match1), base: 6))
        #expect(changesB.take() == [], "an inactive list does not redraw")
        matchesB.active.value = true
        #expect(changesB.take() == [RowChanges(deletions: [0])])
    }
}
