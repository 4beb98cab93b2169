import Foundation

/// A paced writer's send credit: one unit per mutation, earned at the writer's rate between its ticks, capped at one
/// more than the window. Time counts, not ticks: a loaded machine delays ticks.
///
/// `Arrivals.even`: credit grows with the time elapsed. The writers of a run share the target rate, and each starts
/// its measured phase with a different fraction of a unit (`start(phase:)`): writer i of n starts with i/n, so
/// their sends are spread evenly over each interval. Had they all started at 0, they would all earn their first
/// unit at the same moment and send on the same tick, every interval: the `latency` preset's four writers sent
/// within a few milliseconds of each other every 40 ms, bursts that a steady 100 commits/s does not contain, and
/// the nodes of a shared store refused each other's batches at every one (docs/BENCHMARKS.md, "Writers spread over
/// the interval").
///
/// `Arrivals.poisson`: a unit arrives at the end of each gap drawn from the exponential distribution of the rate
/// (from the writer's own seeded generator, so a run is repeatable), so the writers together send as a Poisson
/// process of the total rate, clusters included.
///
/// Value type; lives in `WriterState`, under the writer's mutex.
struct SendCredit: Sendable {
    /// Units per second; 0 when the writer is not paced (it sends as the window allows).
    let rate: Double
    /// The most credit kept: one more than the window, so a writer held back by its window does not burst after.
    let cap: Double
    let arrivals: Arrivals
    /// The credit now.
    private(set) var units: Double = 0
    /// When credit was last earned, on `MonotonicClock` (0 before the first tick).
    private var lastTick: UInt64 = 0
    /// Poisson: when the next unit arrives (nil until the first tick of a measured phase).
    private var nextArrival: UInt64?
    private var random: LoadRandom

    init(rate: Double, window: Int, arrivals: Arrivals = .even, seed: UInt64 = 1) {
        self.rate = rate
        self.cap = Double(window) + 1
        self.arrivals = arrivals
        self.random = LoadRandom(seed: seed)
    }

    /// Starts a measured phase with `phase` of a unit (0 ≤ phase < 1; even arrivals only).
    mutating func start(phase: Double) {
        units = arrivals == .even ? min(max(phase, 0), cap) : 0
        nextArrival = nil
    }

    /// One tick at `now`: earns what arrived since the last tick while `earning` (the measured phase is on).
    mutating func tick(at now: UInt64, earning: Bool) {
        defer { lastTick = now }
        guard rate > 0, earning else {
            nextArrival = nil
            return
        }
        switch arrivals {
        case .even:
            if lastTick > 0 { units = min(units + rate * MonotonicClock.seconds(from: lastTick, to: now), cap) }
        case .poisson:
            var next = nextArrival ?? now + gap()
            while next <= now {
                units = min(units + 1, cap)
                next += gap()
            }
            nextArrival = next
        }
    }

    /// Spends one unit if there is one. - Returns: whether a mutation may be sent.
    mutating func spend() -> Bool {
        guard units >= 1 else { return false }
        units -= 1
        return true
    }

    /// An exponential gap of mean 1/rate, in nanoseconds.
    private mutating func gap() -> UInt64 {
        // 53 random bits as a uniform in (0, 1]: never 0, whose logarithm is infinite.
        let uniform = Double(random.next() >> 11 + 1) / Double(UInt64(1) << 53)
        return UInt64(-log(uniform) / rate * 1e9)
    }
}
