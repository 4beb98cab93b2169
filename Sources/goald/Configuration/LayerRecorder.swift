import Configuration
import GoalLocking

/// An `AccessReporter` that keeps the last access event, so the loader can tell which provider (layer) answered a
/// key, or which one failed to convert it.
///
/// `Sendable`: the event sits behind a `LockedValue`.
final class LayerRecorder: AccessReporter, Sendable {
    private let last = LockedValue<AccessEvent?>(nil)

    func report(_ event: AccessEvent) { last.withLock { $0 = event } }

    /// The last event, cleared.
    func take() -> AccessEvent? {
        last.withLock { event in
            defer { event = nil }
            return event
        }
    }
}
