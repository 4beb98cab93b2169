/// A paced writer's send credit: one unit per mutation, earned at the writer's rate by the time elapsed between its
/// ticks (a loaded machine delays ticks, so time counts, not ticks), capped at one more than the window.
///
/// The writers of a run share the target rate, and each starts its measured phase with a different fraction of a
/// unit (`start(phase:)`): writer i of n starts with i/n, so their sends are spread evenly over each interval. Had
/// they all started at 0, they would all earn their first unit at the same moment and send on the same tick, every
/// interval: the `latency` preset's four writers sent within a few milliseconds of each other every 40 ms, bursts that
/// a steady 100 commits/s does not contain, and the nodes of a shared store refused each other's batches at every one
/// (docs/BENCHMARKS.md, "Writers spread over the interval").
///
/// Value type; lives in `WriterState`, under the writer's mutex.
struct SendCredit: Sendable {
    /// Units per second; 0 when the writer is not paced (it sends as the window allows).
    let rate: Double
    /// The most credit kept: one more than the window, so a writer held back by its window does not burst after.
    let cap: Double
    /// The credit now.
    private(set) var units: Double = 0
    /// When credit was last earned, on `MonotonicClock` (0 before the first tick).
    private var lastTick: UInt64 = 0

    init(rate: Double, window: Int) {
        self.rate = rate
        self.cap = Double(window) + 1
    }

    /// Starts a measured phase with `phase` of a unit (0 ≤ phase < 1).
    mutating func start(phase: Double) {
        units = min(max(phase, 0), cap)
    }

    /// One tick at `now`: earns the time since the last tick while `earning` (the measured phase is on).
    mutating func tick(at now: UInt64, earning: Bool) {
        if rate > 0, earning, lastTick > 0 {
            units = min(units + rate * MonotonicClock.seconds(from: lastTick, to: now), cap)
        }
        lastTick = now
    }

    /// Spends one unit if there is one. - Returns: whether a mutation may be sent.
    mutating func spend() -> Bool {
        guard units >= 1 else { return false }
        units -= 1
        return true
    }
}
