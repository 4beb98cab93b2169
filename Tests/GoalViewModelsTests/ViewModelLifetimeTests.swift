import GoalClient
import GoalModel
@_spi(Testing) import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// Issue 14, point 8: a view model ends with its owner. Making and dropping many of each leaves no view model
/// alive and no observer on the store's properties.
@MainActor
@Suite("View models end with their owner", .slotted)
struct ViewModelLifetimeTests {
    let mock = MockLeague()
    static let rounds = 1_000

    /// Every observer on the store's outputs.
    func observerCounts(_ store: InMemoryLeagueStore) -> [String: Int] {
        [
            "replica": store.replica.signal.observerCount,
            "pendingMutations": store.pendingMutations.signal.observerCount,
            "status": store.status.signal.observerCount,
            "updates": store.updates.observerCount,
        ]
    }

    /// Makes `Self.rounds` view models with `make`, uses and drops each, and checks that none survives and the
    /// store's observers are back at the baseline.
    func expectNothingSurvives(
        _ name: String,
        _ store: InMemoryLeagueStore,
        make: (Int) -> AnyObject,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let baseline = observerCounts(store)
        var survivors: [WeakBox] = []
        survivors.reserveCapacity(Self.rounds)
        for round in 0..<Self.rounds {
            survivors.append(WeakBox(make(round)))
        }
        let alive = survivors.filter { $0.object != nil }.count
        #expect(alive == 0, "\(alive) of \(Self.rounds) \(name)s are still alive", sourceLocation: sourceLocation)
        #expect(
            observerCounts(store) == baseline,
            "observers left on the store by \(name)",
            sourceLocation: sourceLocation
        )
    }

    @Test func editMatchViewModels() {
        let store = mock.store()
        expectNothingSurvives("EditMatchViewModel", store) { round in
            let viewModel = EditMatchViewModel(store: store, matchID: round.isMultiple(of: 2) ? mock.match1 : nil)
            viewModel.homeGoals.value = round % 7
            _ = (viewModel.homePlayersString.value, viewModel.awayPlayersString.value, viewModel.hasChanges.value)
            let home = viewModel.manageHomePlayersViewModel()
            home.active.value = true
            home.togglePlayer(mock.a)
            _ = viewModel.saveAction.isEnabled.value
            return viewModel
        }
    }

    @Test func managePlayersViewModels() {
        let store = mock.store()
        expectNothingSurvives("ManagePlayersViewModel", store) { round in
            let viewModel = ManagePlayersViewModel(store: store, initialPlayers: [mock.a], disabledPlayers: [mock.b])
            viewModel.active.value = true
            viewModel.playerName.value = "Player \(round)"
            _ = (viewModel.nameProblem.value, viewModel.inputIsValid.value)
            viewModel.moveCursor(by: 1)
            return viewModel
        }
    }

    @Test func matchesViewModels() {
        let store = mock.store()
        expectNothingSurvives("MatchesViewModel", store) { round in
            let viewModel = MatchesViewModel(store: store)
            viewModel.active.value = true
            viewModel.moveCursor(by: round % 2)
            return viewModel
        }
    }

    @Test func rankingsViewModels() {
        let store = mock.store()
        expectNothingSurvives("RankingsViewModel", store) { _ in
            let viewModel = RankingsViewModel(store: store)
            viewModel.active.value = true
            return viewModel
        }
    }

    @Test func connectionViewModels() {
        let store = mock.store()
        expectNothingSurvives("ConnectionViewModel", store) { _ in
            let viewModel = ConnectionViewModel(store: store)
            _ = (viewModel.statusText.value, viewModel.revisionText.value, viewModel.pendingCount.value)
            return viewModel
        }
    }

    @Test func aDroppedFormNoLongerFollowsTheReplica() {
        let store = mock.store()
        let baseline = store.replica.signal.observerCount
        var viewModel: EditMatchViewModel? = EditMatchViewModel(store: store, matchID: mock.match1)
        #expect(store.replica.signal.observerCount > baseline)
        let names = viewModel?.homePlayersString
        viewModel = nil
        #expect(store.replica.signal.observerCount == baseline)
        #expect(names?.value == "C, A", "a derived property keeps its last value")
    }
}

/// A weak reference, for counting survivors.
@MainActor
final class WeakBox {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
