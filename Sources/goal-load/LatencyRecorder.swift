import GoalLocking
import Histogram

/// Commit→delivery latencies in microseconds, recorded from every subscriber's event loop: all of them, and with
/// several nodes (`--url` more than once) also split by where the subscriber was against the node its writer sent
/// the mutation to.
///
/// Threading: sharded by subscriber so the event loops rarely meet on one lock; each shard is a `LockedValue` around its
/// HdrHistograms. `merged(_:)` may be called any time from any thread. Lifetime: one per run.
final class LatencyRecorder: Sendable {
    /// Latencies above this (60 s) are clamped to it.
    static let highestMicroseconds: UInt64 = 60_000_000

    /// Where a delivery went, against the node that committed it.
    enum Path: Sendable {
        /// The subscriber is on the node the writer sent the mutation to.
        case sameNode
        /// The subscriber is on another node: the commit crossed the store to reach it.
        case otherNode
    }

    private struct Histograms {
        var all = LatencyRecorder.histogram()
        var sameNode = LatencyRecorder.histogram()
        var otherNode = LatencyRecorder.histogram()
    }

    /// One lock and its histograms (a class: `LockedValue` cannot sit in an array by value).
    private final class Shard: Sendable {
        let histograms = LockedValue(Histograms())
    }

    private let shards: [Shard]

    init(shards: Int = 16) {
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    /// Records one delivery's latency; `path` when the run has several nodes.
    func record(nanoseconds: UInt64, shard: Int, path: Path? = nil) {
        let micros = min(max(nanoseconds / 1_000, 1), Self.highestMicroseconds)
        shards[shard % shards.count].histograms.withLock { histograms in
            _ = histograms.all.record(micros)
            switch path {
            case .sameNode: _ = histograms.sameNode.record(micros)
            case .otherNode: _ = histograms.otherNode.record(micros)
            case nil: break
            }
        }
    }

    /// All shards added together: every delivery, or those of one path.
    func merged(_ path: Path? = nil) -> Histogram<UInt64> {
        var total = Self.histogram()
        for shard in shards {
            let copy = shard.histograms.withLock { histograms in
                switch path {
                case .sameNode: histograms.sameNode
                case .otherNode: histograms.otherNode
                case nil: histograms.all
                }
            }
            total.add(copy)
        }
        return total
    }

    private static func histogram() -> Histogram<UInt64> {
        Histogram<UInt64>(highestTrackableValue: highestMicroseconds)
    }
}
