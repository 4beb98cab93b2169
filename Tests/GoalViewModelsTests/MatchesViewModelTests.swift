@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

@MainActor
@Suite("MatchesViewModel (SwiftGoal's MatchesViewModelSpec)", .slotted)
struct MatchesViewModelTests {
    let mock = MockLeague()

    @Test func titleAndEmptyBeforeActive() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        #expect(viewModel.title == "Matches")
        #expect(viewModel.numberOfSections == 1)
        #expect(viewModel.numberOfMatches(inSection: 0) == 0)
        #expect(store.refreshCount == 0)
    }

    @Test func becomingActiveFetchesAndShowsRowsInStoreOrder() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        #expect(store.refreshCount == 1)
        #expect(viewModel.numberOfSections == 1)
        #expect(viewModel.numberOfMatches(inSection: 0) == 2)
        #expect((0..<2).map(viewModel.homePlayers(at:)) == ["C, A", "C, B"])
        #expect((0..<2).map(viewModel.awayPlayers(at:)) == ["D, B", "A, D"])
        #expect((0..<2).map(viewModel.result(at:)) == ["2 : 1", "0 : 1"])
        #expect((0..<2).map(viewModel.isPending(at:)) == [false, false])
        #expect(changes.take() == [RowChanges(insertions: [0, 1])])
    }

    @Test func refreshFetchesAgainAndSendsAnEmptyChangeWhenNothingChanged() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        let loading = Recorder(viewModel.isLoading)
        viewModel.active.value = true
        viewModel.refreshObserver.send(value: ())
        #expect(store.refreshCount == 2)
        #expect(loading.values == [false, true, false, true, false])
        #expect(changes.take() == [RowChanges(insertions: [0, 1]), RowChanges()])
    }

    @Test func aFailedRefreshRaisesAnAlert() {
        let store = mock.store()
        store.refreshFailure = StoreError("The server is unreachable.")
        let viewModel = MatchesViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        viewModel.active.value = true
        #expect(alerts.values == ["The server is unreachable."])
        #expect(viewModel.isLoading.value == false)
    }

    @Test func deleteActionDeletesTheMatchAtTheRowAndRefreshes() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        let outcome = Outcome(viewModel.deleteAction.apply(viewModel.shownMatch(at: 1)))
        #expect(outcome.completed)
        #expect(outcome.values.map(\.revision) == [7])
        #expect(store.submitted.map(\.action) == [.deleteMatch(id: mock.match2)])
        #expect(store.submitted.map(\.base) == [6])
        #expect(store.replica.value.matches[mock.match2] == nil)
        // The live change (row 1 deleted), then the refresh the delete triggers (nothing more changed).
        #expect(changes.take() == [RowChanges(deletions: [1]), RowChanges()])
        #expect(store.refreshCount == 2)
    }

    @Test func aRefusedDeleteRaisesAnAlert() {
        let store = mock.store("viewer-b", role: .viewer)
        let viewModel = MatchesViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        viewModel.active.value = true
        _ = Outcome(viewModel.deleteAction.apply(viewModel.shownMatch(at: 0)))
        #expect(
            alerts.values == [
                "refused (unauthorized): the viewer role may not delete match; ask an admin for an editor token"
            ]
        )
        #expect(viewModel.numberOfMatches(inSection: 0) == 2)
    }

    @Test func childViewModelsForNewAndExistingMatches() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        viewModel.active.value = true
        #expect(viewModel.editViewModelForNewMatch().title == "New Match")
        let edit = viewModel.editViewModel(for: viewModel.rows[0].id)
        #expect(edit.title == "Edit Match")
        #expect(edit.formattedHomeGoals.value == "2")
        #expect(edit.formattedAwayGoals.value == "1")
        #expect(edit.matchID == mock.match1)
        #expect(edit.base == 6)
    }

    @Test func pendingMutationsMarkTheirRowsUntilAnswered() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        store.holdsMutations = true
        let outcome = Outcome(store.submit(.adjustGoals(id: mock.match2, side: .home, delta: 1), base: 6))
        #expect((0..<2).map(viewModel.isPending(at:)) == [false, true])
        #expect(changes.take() == [RowChanges(modifications: [1])])
        store.releaseHeldMutations()
        #expect(outcome.completed)
        #expect((0..<2).map(viewModel.isPending(at:)) == [false, false])
        #expect((0..<2).map(viewModel.result(at:)) == ["2 : 1", "1 : 1"])
        // The held goal already showed optimistically ("1 : 1", pending): the commit changes nothing shown, the
        // answer clears the mark (issue 16, point 4).
        #expect(changes.take() == [RowChanges(modifications: [1])])
    }

    @Test func aMatchBeingCreatedShowsAtTheTopAsPendingUntilTheServerAnswers() {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        store.holdsMutations = true
        let id = MatchID()
        let create = MutationAction.createMatch(
            id: id,
            homePlayers: [mock.b],
            awayPlayers: [mock.d],
            homeGoals: 3,
            awayGoals: 3
        )
        let outcome = Outcome(store.submit(create, base: 6))
        let pendingRow = MatchRow(
            id: id,
            homePlayers: "B",
            awayPlayers: "D",
            result: "3 : 3",
            isPending: true,
            created: nil
        )
        #expect(viewModel.rows.map(\.id) == [id, mock.match1, mock.match2])
        #expect(viewModel.rows.first == pendingRow)
        #expect(changes.take() == [RowChanges(insertions: [0])])
        store.releaseHeldMutations()
        #expect(outcome.completed)
        #expect(viewModel.rows.map(\.id) == [id, mock.match1, mock.match2])
        #expect(viewModel.isPending(at: 0) == false)
        #expect(viewModel.rows.first?.created == mock.league.history.last?.time)
        // The commit dates the row (its changeset's time), then the answer clears the pending mark: both in place.
        #expect(
            changes.take() == [RowChanges(modifications: [0]), RowChanges(modifications: [0])],
            "the committed row replaces the pending one in place"
        )
    }

    @Test("a match created by a changeset carries that changeset's time; a snapshot match has no date without history")
    func aCreatedMatchCarriesItsChangesetsTime() throws {
        let store = mock.store()
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        // Both fixture matches came in the store's snapshot, and this store's "server" offers no history.
        viewModel.showing(viewModel.rows.map(\.id))
        #expect(viewModel.rows.map(\.created) == [nil, nil])

        let id = MatchID()
        let create = MutationAction.createMatch(
            id: id,
            homePlayers: [mock.b],
            awayPlayers: [mock.d],
            homeGoals: 1,
            awayGoals: 0
        )
        let other = InMemoryLeagueStore(league: mock.league, instance: ClientInstanceID("other")!)
        let outcome = Outcome(other.submit(create, base: mock.league.revision))
        #expect(outcome.completed)
        let creating = try #require(mock.league.history.last)
        #expect(viewModel.rows.map(\.id) == [id, mock.match1, mock.match2])
        #expect(viewModel.rows.first?.created == creating.time)
        #expect(changes.take() == [RowChanges(insertions: [0])])

        // A later goal does not move the date.
        let goal = Outcome(other.submit(.adjustGoals(id: id, side: .away, delta: 1), base: mock.league.revision))
        #expect(goal.completed)
        #expect(try #require(mock.league.history.last).time != creating.time)
        #expect(viewModel.rows.first?.created == creating.time)
        #expect(viewModel.rows.first?.result == "1 : 1")
    }
}
