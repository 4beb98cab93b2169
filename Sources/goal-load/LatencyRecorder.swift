import Histogram
import Synchronization

/// Commit→delivery latencies in microseconds, recorded from every subscriber's event loop.
///
/// Threading: sharded by subscriber so the event loops rarely meet on one lock; each shard is a `Mutex` around an
/// HdrHistogram. `merged()` may be called any time from any thread. Lifetime: one per run.
final class LatencyRecorder: Sendable {
    /// Latencies above this (60 s) are clamped to it.
    static let highestMicroseconds: UInt64 = 60_000_000
    /// One lock and its histogram (a class: `Mutex` cannot sit in an array by value).
    private final class Shard: Sendable {
        let histogram = Mutex(Histogram<UInt64>(highestTrackableValue: LatencyRecorder.highestMicroseconds))
    }

    private let shards: [Shard]

    init(shards: Int = 16) {
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Records one delivery's latency.
    func record(nanoseconds: UInt64, shard: Int) {
        let micros = min(max(nanoseconds / 1_000, 1), Self.highestMicroseconds)
        shards[shard % shards.count].histogram.withLock { _ = $0.record(micros) }
    }

    /// All shards added together.
    func merged() -> Histogram<UInt64> {
        var total = Histogram<UInt64>(highestTrackableValue: Self.highestMicroseconds)
        for shard in shards {
            let copy = shard.histogram.withLock { $0 }
            total.add(copy)
        }
        return total
    }
}
