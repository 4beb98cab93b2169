import GoalClient
import GoalModel
import GoalReactive
import GoalWire

/// The match list's dates (`MatchRow.created`): a `MatchDates` table fed by the store's changesets, and asked
/// through `LeagueStore.history(_:)` for the shown matches it cannot know otherwise (snapshot matches), one request
/// at a time. Requests go to the client's history queue, never into the changeset stream.
///
/// Threading: `@MainActor`, like its view model; the store answers on the main thread. Lifetime: the outstanding
/// request is disposed of with `lifetime` (its view model's).
@MainActor
final class MatchDateLoader {
    private(set) var dates = MatchDates()
    private let store: any LeagueStore
    private let request = SerialDisposable()
    /// The matches the view shows, in order: what the next request is chosen from.
    private var shown: [MatchID] = []
    /// Called with the match whose date a history answer taught (its row must be re-computed).
    var learned: (MatchID) -> Void = { _ in }

    init(store: any LeagueStore, lifetime: Lifetime) {
        self.store = store
        lifetime += request
    }

    /// Records an applied update (before the rows are re-computed from it).
    func record(_ update: ReplicaUpdate) {
        switch update {
        case .changeset(let changeset): dates.record(changeset)
        case .snapshot: dates.keep(only: store.replica.value)
        }
    }

    /// The view now shows these matches: asks for the first unknown date among them, if nothing is outstanding.
    func show(_ ids: [MatchID]) {
        shown = ids
        askNext()
    }

    private func askNext() {
        let matches = store.replica.value.matches
        guard let next = dates.nextRequest(for: shown.lazy.compactMap { matches[$0] }) else { return }
        request.inner = store.history(next).startWithResult { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let page):
                if dates.answered(page), case .match(let id) = next.entity { learned(id) }
            case .failure(let error):
                dates.failed(error)
                // A stopped client fails every request at once: ask again when the view next shows its rows.
                if case .stopped = error.kind { return }
            }
            askNext()
        }
    }
}
