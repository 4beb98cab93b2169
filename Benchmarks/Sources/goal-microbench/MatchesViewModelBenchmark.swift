import ArgumentParser
import GoalClient
import GoalModel
import GoalReactive
import GoalViewModels

/// `goal-microbench match-list`: what GoalViewModels' match list pays per live changeset on a big replica, through
/// the real path — `MatchesViewModel` over a `LeagueStore` whose replica takes the changeset and publishes it
/// (`replica`, then `updates`), so the view model brings its rows up to date, computes their `RowChanges`, moves
/// its cursor and sends the changes.
///
/// Setup (not timed): `ReplicaHistory` with `--players` players and `--matches` matches, then its three live
/// steps (one result changed, one new match on top, one player renamed). For each step and each of `--runs` runs:
/// a fresh store at the replica before the step, a fresh view model on it, made active (its first load, timed
/// apart), its cursor on the middle row. Timed: applying the step's changeset to the replica, publishing it, and
/// the view model's whole synchronous reaction, until its `contentChanges` arrived; and, for reference, the apply
/// alone. Then the steady state: one view model through `--sustained` further changesets in a row (the history's
/// one-goal and score updates on random matches), per changeset. Medians of `--runs`.
struct MatchesViewModelBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match-list",
        abstract: "MatchesViewModel per live changeset on a 10,000-match replica (apply + rows + changes + cursor)."
    )

    @Option(help: "Players in the league.")
    var players: Int = 200

    @Option(help: "Matches created (the size of the match list).")
    var matches: Int = 10_000

    @Option(help: "Runs per figure; the median is printed.")
    var runs: Int = 5

    @Option(help: "Live changesets in a row for the sustained figure (one-goal and score updates on random matches).")
    var sustained: Int = 2_000

    func validate() throws {
        guard players >= 4, matches > 0, runs > 0 else { throw ValidationError("players ≥ 4, matches > 0, runs > 0") }
    }

    func run() throws {
        print("swift run -c release --package-path Benchmarks goal-microbench match-list (median of \(runs))")
        let history = ReplicaHistory(players: players, matches: matches, total: players + matches + 3 + sustained)
        var before = ReplicaState()
        for changeset in history.changesets.prefix(players + matches) { try before.apply(changeset) }
        let live = Array(history.changesets[(players + matches)..<(players + matches + 3)])
        let following = Array(history.changesets.suffix(sustained))
        print("match list: \(before.matches.count) matches, \(before.players.count) players")
        try MainActor.assumeIsolated {
            var loads: [Double] = []
            for (name, changeset) in zip(ReplicaHistory.liveStepNames, live) {
                var times: [Double] = []
                var listTimes: [Double] = []
                var summary = ""
                for _ in 0..<runs {
                    let store = BenchLeagueStore(replica: before)
                    let viewModel = MatchesViewModel(store: store)
                    var changes: RowChanges?
                    viewModel.contentChanges.observeValues { changes = $0 }
                    let loadStart = ContinuousClock.now
                    viewModel.active.value = true
                    loads.append(BenchFormat.milliseconds(ContinuousClock.now - loadStart))
                    viewModel.moveCursor(by: viewModel.numberOfMatches(inSection: 0) / 2)
                    changes = nil
                    let start = ContinuousClock.now
                    var next = store.replica.value
                    try next.apply(changeset)
                    let applied = ContinuousClock.now
                    store.publish(next, update: .changeset(changeset))
                    let end = ContinuousClock.now
                    times.append(BenchFormat.milliseconds(end - start))
                    listTimes.append(BenchFormat.milliseconds(end - applied))
                    guard let changes else { throw ValidationError("the view model sent no changes for \(name)") }
                    summary =
                        "del \(changes.deletions.count) mod \(changes.modifications.count) "
                        + "ins \(changes.insertions.count) moves \(changes.moves.count), "
                        + "\(viewModel.numberOfMatches(inSection: 0)) rows"
                }
                print("  " + name + " (\(summary))")
                print("    apply + publish + view model:     \(micro(times)) µs")
                print("    publish + view model (the list):  \(micro(listTimes)) µs")
                try before.apply(changeset)
            }
            print("  first load (refresh, all rows):       \(BenchFormat.decimals(median(loads))) ms")
            try measureSustained(from: before, following)
        }
    }

    /// One view model through `changesets` in a row (after the live steps), each applied and published: the
    /// steady state, per changeset.
    @MainActor
    private func measureSustained(from replica: ReplicaState, _ changesets: [Changeset]) throws {
        guard !changesets.isEmpty else { return }
        var times: [Double] = []
        var sent = 0
        for _ in 0..<runs {
            let store = BenchLeagueStore(replica: replica)
            let viewModel = MatchesViewModel(store: store)
            viewModel.contentChanges.observeValues { _ in sent += 1 }
            viewModel.active.value = true
            viewModel.moveCursor(by: viewModel.numberOfMatches(inSection: 0) / 2)
            var next = replica
            let start = ContinuousClock.now
            for changeset in changesets {
                try next.apply(changeset)
                store.publish(next, update: .changeset(changeset))
            }
            times.append(BenchFormat.milliseconds(ContinuousClock.now - start) / Double(changesets.count))
        }
        print(
            "  view model, \(changesets.count) changesets in a row: \(micro(times)) µs each  "
                + "(\(sent / runs) RowChanges sent per run)"
        )
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The median in µs with two decimals, then every run.
    private func micro(_ milliseconds: [Double]) -> String {
        BenchFormat.decimals(median(milliseconds) * 1_000) + "  [runs: "
            + milliseconds.map { BenchFormat.decimals($0 * 1_000) }.joined(separator: ", ") + "]"
    }
}

/// A `LeagueStore` that holds a replica the benchmark updates by hand: `publish(_:update:)` sets `replica`, then
/// sends `update` on `updates`, as GoalClient does. Nothing is ever pending; submissions do nothing.
///
/// Threading: used from the main thread only (the benchmark's); its properties are thread-safe anyway.
/// Lifetime: as long as the benchmark holds it.
final class BenchLeagueStore: LeagueStore {
    let replica: Property<ReplicaState>
    let updates: Signal<ReplicaUpdate, Never>
    let pendingMutations = Property<[PendingMutation]>(value: [])
    let status = Property<ConnectionStatus>(value: .live(roundTrip: nil))
    let serverName = "bench"
    let clientInstance = ClientInstanceID("bench-viewer")!
    private let replicaStorage: MutableProperty<ReplicaState>
    private let updatesInput: Signal<ReplicaUpdate, Never>.Observer

    init(replica: ReplicaState) {
        replicaStorage = MutableProperty(replica)
        self.replica = Property(capturing: replicaStorage)
        (updates, updatesInput) = Signal.pipe()
    }

    /// The replica took `update`: publish the replica, then the update.
    func publish(_ next: ReplicaState, update: ReplicaUpdate) {
        replicaStorage.value = next
        updatesInput.send(value: update)
    }

    func submit(_ action: MutationAction, base: Revision) -> SignalProducer<MutationAck, MutationError> { .empty }

    func refresh() -> SignalProducer<Revision, StoreError> { SignalProducer(value: replica.value.revision) }
}
