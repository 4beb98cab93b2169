@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

@MainActor
@Suite("ManagePlayersViewModel (SwiftGoal's ManagePlayersViewModelSpec, name rules, shared form)", .slotted)
struct ManagePlayersViewModelTests {
    let mock = MockLeague()

    @Test func titleAndEmptyBeforeActive() {
        let store = mock.store()
        let viewModel = ManagePlayersViewModel(store: store)
        #expect(viewModel.title == "Players")
        #expect(viewModel.numberOfSections == 1)
        #expect(viewModel.numberOfPlayers(inSection: 0) == 0)
        #expect(store.refreshCount == 0)
    }

    @Test func initialPlayersAreSelectedAndDisabledPlayersCannotBeSelected() {
        let store = mock.store()
        let viewModel = ManagePlayersViewModel(
            store: store,
            initialPlayers: [mock.a, mock.b],
            disabledPlayers: [mock.c]
        )
        viewModel.active.value = true
        // Players by name (docs/RULES.md "Orders"): A, B, C, D.
        #expect((0..<4).map(viewModel.playerName(at:)) == ["A", "B", "C", "D"])
        #expect((0..<4).map(viewModel.isPlayerSelected(at:)) == [true, true, false, false])
        #expect((0..<4).map(viewModel.canSelectPlayer(at:)) == [true, true, false, true])
    }

    @Test func activeFetchesRefreshesAndSelectionToggles() {
        let store = mock.store()
        let viewModel = ManagePlayersViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        let loading = Recorder(viewModel.isLoading)
        viewModel.active.value = true
        #expect(store.refreshCount == 1)
        #expect(viewModel.numberOfPlayers(inSection: 0) == 4)
        viewModel.selectPlayer(viewModel.rows[0].id)
        #expect(viewModel.isPlayerSelected(at: 0))
        viewModel.deselectPlayer(viewModel.rows[0].id)
        #expect(viewModel.isPlayerSelected(at: 0) == false)
        viewModel.refreshObserver.send(value: ())
        #expect(store.refreshCount == 2)
        #expect(loading.values == [false, true, false, true, false])
        #expect(changes.values == [RowChanges(insertions: [0, 1, 2, 3]), RowChanges()])
    }

    @Test func aFailedRefreshRaisesAnAlert() {
        let store = mock.store()
        store.refreshFailure = StoreError("offline")
        let viewModel = ManagePlayersViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        viewModel.active.value = true
        #expect(alerts.values == ["offline"])
    }

    @Test(
        arguments: [
            ("", "a player name cannot be empty or only whitespace"),
            ("   ", "a player name cannot be empty or only whitespace"),
            ("a", "a player named \"A\" already exists"),
            (" d ", "a player named \"D\" already exists"),
            (
                "Ann\u{202E}",
                "a player name cannot contain control, bidi-override or zero-width characters; found U+202E"
            ),
            (String(repeating: "x", count: 65), "a player name has at most 64 characters; this one has 65"),
        ]
    )
    func nameValidityFollowsTheNameRulesAndUniqueness(name: String, problem: String) {
        let viewModel = ManagePlayersViewModel(store: mock.store())
        viewModel.playerName.value = name
        #expect(viewModel.nameProblem.value == problem)
        #expect(viewModel.inputIsValid.value == false)
        #expect(viewModel.saveAction.isEnabled.value == false)
    }

    @Test func theSharedFormCreatesAPlayerThatAppearsInTheListAndClearsTheName() {
        let store = mock.store()
        let viewModel = ManagePlayersViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        viewModel.playerName.value = "  Bea "
        #expect(viewModel.nameProblem.value == nil)
        #expect(viewModel.inputIsValid.value)
        let outcome = Outcome(viewModel.saveAction.apply())
        #expect(outcome.completed)
        #expect((0..<5).map(viewModel.playerName(at:)) == ["A", "B", "Bea", "C", "D"])
        #expect(changes.take() == [RowChanges(insertions: [2]), RowChanges()])
        #expect(viewModel.playerName.value == "")
        #expect(store.refreshCount == 2)
        viewModel.playerName.value = "bea"
        #expect(viewModel.nameProblem.value == "a player named \"Bea\" already exists")
    }

    @Test func aRefusedSaveRaisesAnAlert() {
        let store = mock.store("viewer", role: .viewer)
        let viewModel = ManagePlayersViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        viewModel.playerName.value = "Eve"
        _ = Outcome(viewModel.saveAction.apply())
        #expect(
            alerts.values == [
                "refused (unauthorized): the viewer role may not create player; ask an admin for an editor token"
            ]
        )
    }

    @Test func aPlayerBeingCreatedIsListedAsPendingUntilTheServerAnswers() {
        let store = mock.store()
        let viewModel = ManagePlayersViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        store.holdsMutations = true
        viewModel.playerName.value = "Bea"
        let outcome = Outcome(viewModel.saveAction.apply())
        #expect((0..<5).map(viewModel.playerName(at:)) == ["A", "B", "Bea", "C", "D"])
        #expect((0..<5).map(viewModel.isPending(at:)) == [false, false, true, false, false])
        #expect(changes.take() == [RowChanges(insertions: [2])])
        #expect(viewModel.playerName.value == "Bea", "the form keeps the name until the save succeeds")
        store.releaseHeldMutations()
        #expect(outcome.completed)
        #expect((0..<5).map(viewModel.isPending(at:)) == [false, false, false, false, false])
        #expect(changes.take() == [RowChanges(modifications: [2]), RowChanges()])
        #expect(viewModel.playerName.value == "")
    }
}
