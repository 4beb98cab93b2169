import ArgumentParser
import GoalReactive

/// `goal-microbench reactive`: throughput of the reactive core on the paths view models use most.
///
/// - `map → filter → observer` on a `Signal.pipe()` (the operator library's `Signal.map`/`filter`);
/// - `MutableProperty.value =` with 1 and with 100 observers of its `signal` (sets/s; deliveries/s = sets/s × observers);
/// - `Property.combineLatest(a, b, c)` of three `MutableProperty`s with one observer, setting a, b, c in turn.
///
/// Each figure is the best of `--repetitions` timed runs of `--iterations` sends, in operations per second.
/// Everything runs on one thread, uncontended: this measures per-event overhead, not scalability.
struct ReactiveBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reactive",
        abstract: "Time map→filter→observer, MutableProperty sets (1 and 100 observers) and combineLatest of 3."
    )

    @Option(help: "Sends per timed run.")
    var iterations: Int = 1_000_000

    @Option(help: "Timed runs per figure; the best is printed.")
    var repetitions: Int = 5

    func validate() throws {
        guard iterations > 0, repetitions > 0 else {
            throw ValidationError("iterations and repetitions must be positive")
        }
    }

    func run() throws {
        print(
            "swift run -c release --package-path Benchmarks goal-microbench reactive "
                + "(best of \(repetitions) × \(iterations))"
        )
        report("map → filter → observer", unit: "values/s", best { mapFilterObserver() })
        report("MutableProperty.value = (1 observer)", unit: "sets/s", best { propertySets(observers: 1) })
        report("MutableProperty.value = (100 observers)", unit: "sets/s", best { propertySets(observers: 100) })
        report("combineLatest(a, b, c) → observer", unit: "sets/s", best { combineLatestOfThree() })
    }

    /// Seconds of one run of `iterations` values through `map → filter → observer`.
    private func mapFilterObserver() -> Double {
        let (signal, input) = Signal<Int, Never>.pipe()
        var sink = 0
        signal.map { $0 &* 3 }.filter { $0 & 1 == 0 }.observeValues { sink &+= $0 }
        let seconds = time {
            for value in 0..<iterations { input.send(value: value) }
        }
        precondition(sink != 0)
        return seconds
    }

    /// Seconds of one run of `iterations` sets of a property with `observers` observers of its signal.
    private func propertySets(observers: Int) -> Double {
        let property = MutableProperty(0)
        var deliveries = 0
        for _ in 0..<observers { property.signal.observeValues { _ in deliveries &+= 1 } }
        let seconds = time {
            for value in 0..<iterations { property.value = value }
        }
        precondition(deliveries == iterations * observers)
        return seconds
    }

    /// Seconds of one run of `iterations` sets spread over the three sources of a `combineLatest`.
    private func combineLatestOfThree() -> Double {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let c = MutableProperty(0)
        let combined = Property.combineLatest(a, b, c)
        var sink = 0
        combined.signal.observeValues { sink &+= $0.0 &+ $0.1 &+ $0.2 }
        let seconds = time {
            for value in 0..<iterations {
                switch value % 3 {
                case 0: a.value = value
                case 1: b.value = value
                default: c.value = value
                }
            }
        }
        precondition(combined.value.2 >= 0 && sink != 0)
        return seconds
    }

    private func best(_ run: () -> Double) -> Double {
        (0..<repetitions).map { _ in run() }.min()!
    }

    private func time(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private func report(_ name: String, unit: String, _ seconds: Double) {
        let perSecond = Double(iterations) / seconds
        let millions = (perSecond / 1e4).rounded() / 100
        let label = name + String(repeating: " ", count: max(0, 42 - name.count))
        print("\(label) \(millions) M \(unit)  (\((seconds * 1e9 / Double(iterations)).rounded()) ns/op)")
    }
}
