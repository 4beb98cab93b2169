@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

@MainActor
@Suite("EditMatchViewModel (SwiftGoal's EditMatchViewModelSpec, base revision, changed fields, increments)", .slotted)
struct EditMatchViewModelTests {
    let mock = MockLeague()

    @Test func aNewMatchFormatsGoalsAndValidatesBothSides() {
        let store = mock.store()
        let viewModel = EditMatchViewModel(store: store)
        #expect(viewModel.title == "New Match")
        #expect(viewModel.isNewMatch)
        #expect(viewModel.base == 6)
        #expect(viewModel.formattedHomeGoals.value == "0")
        viewModel.homeGoals.value = 1
        #expect(viewModel.formattedHomeGoals.value == "1")
        viewModel.awayGoals.value = 1
        #expect(viewModel.formattedAwayGoals.value == "1")
        #expect(viewModel.homePlayersString.value == "Set Home Players")
        #expect(viewModel.awayPlayersString.value == "Set Away Players")
        #expect(viewModel.inputIsValid.value == false)
        #expect(viewModel.saveAction.isEnabled.value == false)

        let away = viewModel.manageAwayPlayersViewModel()
        away.active.value = true
        away.selectPlayer(away.rows[1].id)  // B (players by name: A, B, C, D)
        #expect(viewModel.awayPlayersString.value == "B")
        #expect(viewModel.inputIsValid.value == false, "only an away player")

        let home = viewModel.manageHomePlayersViewModel()
        home.active.value = true
        #expect((0..<4).map(home.canSelectPlayer(at:)) == [true, false, true, true], "B plays away")
        home.selectPlayer(home.rows[1].id)
        #expect(home.selectedPlayers.value == [], "a disabled player cannot be selected")
        home.selectPlayer(home.rows[0].id)
        home.selectPlayer(home.rows[2].id)
        #expect(viewModel.homePlayersString.value == "A, C")
        #expect(viewModel.inputIsValid.value)
        #expect(viewModel.saveAction.isEnabled.value)

        let outcome = Outcome(viewModel.saveAction.apply())
        #expect(outcome.completed)
        #expect(
            store.submitted.map(\.action) == [
                .createMatch(
                    id: viewModel.matchID,
                    homePlayers: [mock.a, mock.c],
                    awayPlayers: [mock.b],
                    homeGoals: 1,
                    awayGoals: 1
                )
            ]
        )
        #expect(store.replica.value.matches[viewModel.matchID]?.homeGoals == 1)
    }

    @Test func goalsOutsideTheRangeAreInvalid() {
        let viewModel = EditMatchViewModel(store: mock.store(), matchID: mock.match1)
        #expect(viewModel.inputIsValid.value)
        viewModel.homeGoals.value = 1000
        #expect(viewModel.inputIsValid.value == false)
        viewModel.homeGoals.value = -1
        #expect(viewModel.inputIsValid.value == false)
    }

    @Test func editingSendsOnlyTheChangedFieldsWithTheOpeningBase() {
        let store = mock.store()
        let viewModel = EditMatchViewModel(store: store, matchID: mock.match1)
        #expect(viewModel.title == "Edit Match")
        #expect(viewModel.homePlayersString.value == "C, A")
        #expect(viewModel.awayPlayersString.value == "D, B")
        #expect(viewModel.hasChanges.value == false)
        #expect(viewModel.saveAction.isEnabled.value == false, "nothing to save")
        viewModel.awayGoals.value = 3
        #expect(viewModel.pendingUpdate == MatchUpdate(awayGoals: 3))
        #expect(viewModel.saveAction.isEnabled.value)
        let outcome = Outcome(viewModel.saveAction.apply())
        #expect(outcome.values.map(\.revision) == [7])
        #expect(
            store.submitted == [
                Mutation(
                    id: store.submitted[0].id,
                    base: 6,
                    action: .updateMatch(id: mock.match1, MatchUpdate(awayGoals: 3))
                )
            ]
        )
    }

    @Test func pickerSelectionIsBoundBackAndKeepsTheStoredOrder() {
        let store = mock.store()
        let viewModel = EditMatchViewModel(store: store, matchID: mock.match1)
        let home = viewModel.manageHomePlayersViewModel()
        home.active.value = true
        #expect(home.selectedPlayers.value == [mock.c, mock.a])
        #expect((0..<4).map(home.isPlayerSelected(at:)) == [true, false, true, false])
        #expect((0..<4).map(home.canSelectPlayer(at:)) == [true, false, true, false], "B and D play away")
        home.deselectPlayer(home.rows[0].id)  // A
        #expect(viewModel.selectedHomePlayers.value == [mock.c])
        #expect(viewModel.homePlayersString.value == "C")
        #expect(viewModel.pendingUpdate == MatchUpdate(homePlayers: [mock.c]))
        home.selectPlayer(home.rows[0].id)
        #expect(viewModel.homePlayersString.value == "C, A", "a re-added player follows the kept ones")
        #expect(viewModel.pendingUpdate == MatchUpdate())
    }

    @Test func goalIncrementsSendAdjustGoalsAndAreNotUnsavedChanges() {
        let store = mock.store()
        let viewModel = EditMatchViewModel(store: store, matchID: mock.match1)
        let outcome = Outcome(viewModel.adjustGoalsAction.apply((.home, 1)))
        #expect(outcome.completed)
        #expect(store.submitted.map(\.action) == [.adjustGoals(id: mock.match1, side: .home, delta: 1)])
        #expect(store.submitted.map(\.base) == [6])
        #expect(viewModel.formattedHomeGoals.value == "3")
        #expect(viewModel.hasChanges.value == false)
        #expect(store.replica.value.matches[mock.match1]?.homeGoals == 3)
        #expect(EditMatchViewModel(store: store).adjustGoalsAction.isEnabled.value == false)
    }

    @Test func concurrentIncrementsFromAnotherClientBothCount() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let viewModel = EditMatchViewModel(store: mine, matchID: mock.match1)
        _ = Outcome(theirs.submit(.adjustGoals(id: mock.match1, side: .home, delta: 1), base: 6))
        let outcome = Outcome(viewModel.adjustGoalsAction.apply((.home, 1)))
        #expect(outcome.completed)
        #expect(mine.replica.value.matches[mock.match1]?.homeGoals == 4)
    }

    @Test func aFormOpenedBeforeAnotherClientsChangeConflictsOnSaveAndShowsTheirValues() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let viewModel = EditMatchViewModel(store: mine, matchID: mock.match1)
        let alerts = Recorder(viewModel.alertMessages)
        let conflicts = Recorder(viewModel.conflictAlerts)

        // The other client changes the away goals and the away players after the form opened.
        let other = Outcome(
            theirs.submit(.updateMatch(id: mock.match1, MatchUpdate(awayPlayers: [mock.d], awayGoals: 5)), base: 6)
        )
        #expect(other.completed)
        #expect(mine.replica.value.revision == 7)

        viewModel.awayGoals.value = 3
        let away = viewModel.manageAwayPlayersViewModel()
        away.active.value = true
        away.deselectPlayer(away.rows[3].id)  // D: away is now [B]
        let outcome = Outcome(viewModel.saveAction.apply())
        guard case .producerFailed(let error) = outcome.error else {
            Issue.record("save did not fail: \(String(describing: outcome.error))")
            return
        }
        #expect(error.code == .conflict)
        let expected = ConflictAlert(
            title: "Someone else changed this match",
            fields: ["away players", "away goals"],
            currentValues: ["away players: D", "away goals: 5"]
        )
        #expect(conflicts.values == [expected])
        #expect(
            alerts.values == [
                "Someone else changed away players and away goals while you were editing. Now: away players: D; away goals: 5."
            ]
        )
        #expect(mine.replica.value.matches[mock.match1]?.awayGoals == 5)
    }

    @Test func disjointConcurrentEditsBothApply() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let viewModel = EditMatchViewModel(store: mine, matchID: mock.match1)
        _ = Outcome(theirs.submit(.updateMatch(id: mock.match1, MatchUpdate(awayGoals: 5)), base: 6))
        viewModel.homeGoals.value = 4
        let outcome = Outcome(viewModel.saveAction.apply())
        #expect(outcome.completed)
        let match = mine.replica.value.matches[mock.match1]
        #expect(match?.homeGoals == 4)
        #expect(match?.awayGoals == 5)
    }
}
