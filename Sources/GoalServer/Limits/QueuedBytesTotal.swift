import CoreMetrics
import Synchronization

/// The bytes queued in every session's own outbound queue together: the global cap's measure (`SessionCollaborators
/// .adjustQueuedBytes`), mirrored in the `goald_session_queued_bytes` meter.
///
/// Threading: `Sendable`; one atomic, adjusted from every event loop. Lifetime: the daemon's (one, made by
/// `DaemonComposition`).
final class QueuedBytesTotal: Sendable {
    private let total = Atomic<Int>(0)
    private let meter: CoreMetrics.Meter

    init(meter: CoreMetrics.Meter) {
        self.meter = meter
    }

    /// Adds (or, negative, removes) bytes from the total.
    /// - Returns: the new total.
    @discardableResult
    func adjust(by delta: Int) -> Int {
        let total = total.add(delta, ordering: .relaxed).newValue
        meter.set(total)
        return total
    }
}
