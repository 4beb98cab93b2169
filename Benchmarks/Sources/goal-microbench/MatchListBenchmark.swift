import GoalClient
import GoalModel

/// The match list's work on a big replica, as `MatchesViewModel` does it: rows ("A, B", "2 : 1", newest first)
/// built from the replica, then `RowChanges(old:new:)` against the rows shown. Part of `goal-microbench replica`.
struct MatchListBenchmark {
    let replica: ReplicaState
    /// Changesets that continue `replica`: a result change, a new match, a rename (`ReplicaHistory.liveSteps`).
    let live: [Changeset]
    let runs: Int

    func run() throws {
        print("match list: \(replica.matches.count) matches, \(replica.players.count) players (ms, median of \(runs))")
        var rows: [BenchMatchRow] = []
        let build = median { rows = BenchMatchRow.rows(replica) }
        print("  build rows:                   \(BenchFormat.decimals(build)) ms")
        var changes = RowChanges.empty
        let first = median { changes = RowChanges(old: [BenchMatchRow](), new: rows) }
        print("  first load diff:              \(BenchFormat.decimals(first)) ms  (\(summary(changes)))")
        let same = rows
        let unchanged = median { changes = RowChanges(old: rows, new: same) }
        print("  unchanged refresh diff:       \(BenchFormat.decimals(unchanged)) ms  (\(summary(changes)))")

        var before = replica
        for (name, changeset) in zip(ReplicaHistory.liveStepNames, live) {
            let shown = BenchMatchRow.rows(before)
            var after = before
            let total = try medianThrowing {
                var next = before
                try next.apply(changeset)
                changes = RowChanges(old: shown, new: BenchMatchRow.rows(next))
                after = next
            }
            let label = "  apply + rows + diff, " + name + ":"
            print(
                label.padding(toLength: 50, withPad: " ", startingAt: 0)
                    + "\(BenchFormat.decimals(total)) ms  (\(summary(changes)))"
            )
            before = after
        }
    }

    private func median(_ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            body()
            times.append(BenchFormat.milliseconds(ContinuousClock.now - start))
        }
        return times.sorted()[times.count / 2]
    }

    private func medianThrowing(_ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            times.append(BenchFormat.milliseconds(ContinuousClock.now - start))
        }
        return times.sorted()[times.count / 2]
    }

    private func summary(_ changes: RowChanges) -> String {
        "del \(changes.deletions.count) mod \(changes.modifications.count) ins \(changes.insertions.count) "
            + "moves \(changes.moves.count)"
    }
}

/// A match row as the list shows it (GoalViewModels' `MatchRow` has no public initializer).
struct BenchMatchRow: Identifiable, Equatable {
    let id: MatchID
    let homePlayers: String
    let awayPlayers: String
    let result: String

    static func rows(_ replica: ReplicaState) -> [BenchMatchRow] {
        replica.matchesNewestFirst().map { match in
            BenchMatchRow(
                id: match.id,
                homePlayers: replica.names(match.homePlayers),
                awayPlayers: replica.names(match.awayPlayers),
                result: "\(match.homeGoals) : \(match.awayGoals)"
            )
        }
    }
}
