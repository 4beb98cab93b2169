@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

@MainActor
@Suite("RankingsViewModel (SwiftGoal's RankingsViewModelSpec, live moves)", .slotted)
struct RankingsViewModelTests {
    let mock = MockLeague()

    @Test func titleAndEmptyBeforeActive() {
        let viewModel = RankingsViewModel(store: mock.store())
        #expect(viewModel.title == "Rankings")
        #expect(viewModel.numberOfSections == 1)
        #expect(viewModel.numberOfRankings(inSection: 0) == 0)
    }

    @Test func activeShowsRatingsBestFirstWithTwoDecimals() {
        let store = mock.store()
        let viewModel = RankingsViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        let loading = Recorder(viewModel.isLoading)
        viewModel.active.value = true
        #expect(store.refreshCount == 1)
        #expect(viewModel.numberOfRankings(inSection: 0) == 4)
        #expect((0..<4).map(viewModel.playerName(at:)) == ["A", "C", "D", "B"])
        #expect((0..<4).map(viewModel.rating(at:)) == ["10.00", "5.00", "5.00", "0.00"])
        viewModel.refreshObserver.send(value: ())
        #expect(store.refreshCount == 2)
        #expect(loading.values == [false, true, false, true, false])
        #expect(changes.values == [RowChanges(insertions: [0, 1, 2, 3]), RowChanges()])
    }

    @Test func aFailedRefreshRaisesAnAlert() {
        let store = mock.store()
        store.refreshFailure = StoreError("offline")
        let viewModel = RankingsViewModel(store: store)
        let alerts = Recorder(viewModel.alertMessages)
        viewModel.active.value = true
        #expect(alerts.values == ["offline"])
    }

    @Test func anotherClientsMatchReordersTheRankingsLiveThroughMoves() {
        let store = mock.store()
        let other = mock.store("other")
        let viewModel = RankingsViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        _ = changes.take()
        // B beats A: B 1 win / 2 → 3.33, A 2 wins 1 loss → 6.67.
        _ = Outcome(
            other.submit(
                .createMatch(id: MatchID(), homePlayers: [mock.b], awayPlayers: [mock.a], homeGoals: 1, awayGoals: 0),
                base: 6
            )
        )
        #expect((0..<4).map(viewModel.playerName(at:)) == ["A", "C", "D", "B"])
        #expect((0..<4).map(viewModel.rating(at:)) == ["6.67", "5.00", "5.00", "3.33"])
        #expect(changes.take() == [RowChanges(modifications: [0, 3])])
        // C beats A: C 2-1 → 6.67 takes the top, A 2-2 → 5.00 ties D and stays ahead by name.
        // C beats A again: C 3-1 → 7.50, A 2-3 → 4.00 drops below D.
        let expected: [([String], [String])] = [
            (["C", "A", "D", "B"], ["6.67", "5.00", "5.00", "3.33"]),
            (["C", "D", "A", "B"], ["7.50", "5.00", "4.00", "3.33"]),
        ]
        for (names, ratings) in expected {
            let before = viewModel.rows
            _ = Outcome(
                other.submit(
                    .createMatch(
                        id: MatchID(),
                        homePlayers: [mock.c],
                        awayPlayers: [mock.a],
                        homeGoals: 1,
                        awayGoals: 0
                    ),
                    base: other.replica.value.revision
                )
            )
            let after = viewModel.rows
            #expect(after.map(\.name) == names)
            #expect(after.map(\.rating) == ratings)
            let step = changes.take()
            #expect(step.count == 1)
            #expect(step.first?.moves.count == 1, "one row changes its place")
            #expect(step.first?.deletions == [])
            #expect(step.first?.insertions == [])
            #expect(step.first?.applied(to: before, new: after) == after)
        }
    }
}
