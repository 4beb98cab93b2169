import ArgumentParser
import GoalModel

/// `goal-microbench row-changes`: how long `RowChanges(old:new:)` takes on big lists.
///
/// Rows are identified by `PlayerID` (a UUID, hashed as the real view models hash it) and carry an `Int` rating as
/// content. Workloads, for each size: unchanged; ~1% changes (deletions, insertions, modifications and single-row
/// moves, a quarter each); and a full shuffle (the worst case for moves: nearly every row moves). Each figure is the
/// median of `--repetitions` diffs, in milliseconds.
struct RowChangesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "row-changes",
        abstract: "Time RowChanges diffs of 10,000 and 100,000 rows (unchanged, ~1% changes, full shuffle)."
    )

    @Option(help: "Row counts to diff.")
    var sizes: [Int] = [10_000, 100_000]

    @Option(help: "Diffs per figure; the median is printed.")
    var repetitions: Int = 3

    func validate() throws {
        guard repetitions > 0, sizes.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("sizes and repetitions must be positive")
        }
    }

    func run() throws {
        print("swift run -c release --package-path Benchmarks goal-microbench row-changes (median of \(repetitions))")
        var generator = BenchmarkGenerator(state: 42)
        for size in sizes {
            let old = (0..<size).map { BenchmarkRow(id: PlayerID(), rating: $0) }
            for workload in Workload.allCases {
                let new = workload.edit(old, using: &generator)
                var times: [Double] = []
                var changes = RowChanges.empty
                for _ in 0..<repetitions {
                    let start = ContinuousClock.now
                    changes = RowChanges(old: old, new: new)
                    times.append(milliseconds(ContinuousClock.now - start))
                }
                times.sort()
                let summary =
                    "del \(changes.deletions.count) mod \(changes.modifications.count) "
                    + "ins \(changes.insertions.count) moves \(changes.moves.count)"
                print(
                    "\(pad(String(size), 7)) rows  \(pad(workload.rawValue, 9))  "
                        + "\(pad(format(times[times.count / 2]), 9)) ms/diff  (\(summary))"
                )
            }
        }
    }

    private func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    private func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

/// A ranking-like row: identity and one displayed number.
private struct BenchmarkRow: Identifiable, Equatable {
    var id: PlayerID
    var rating: Int
}

/// The edits a benchmark applies to the old list.
private enum Workload: String, CaseIterable {
    case unchanged
    case onePercent = "1% edits"
    case shuffle

    func edit(_ old: [BenchmarkRow], using generator: inout BenchmarkGenerator) -> [BenchmarkRow] {
        var new = old
        switch self {
        case .unchanged:
            break
        case .onePercent:
            let each = max(1, old.count / 400)
            for _ in 0..<each {
                new.remove(at: Int.random(in: new.indices, using: &generator))
            }
            for _ in 0..<each {
                new[Int.random(in: new.indices, using: &generator)].rating += 1
            }
            for _ in 0..<each {
                let row = new.remove(at: Int.random(in: new.indices, using: &generator))
                new.insert(row, at: Int.random(in: 0...new.count, using: &generator))
            }
            for _ in 0..<each {
                let row = BenchmarkRow(id: PlayerID(), rating: -1)
                new.insert(row, at: Int.random(in: 0...new.count, using: &generator))
            }
        case .shuffle:
            new.shuffle(using: &generator)
        }
        return new
    }
}

/// SplitMix64, so every run edits the lists the same way.
private struct BenchmarkGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
