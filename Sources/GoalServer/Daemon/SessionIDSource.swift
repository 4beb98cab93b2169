import Synchronization

/// The daemon's session ids: 1, 2, 3 … in the order sessions open.
///
/// Threading: `Sendable`; one atomic. Lifetime: the daemon's (one, made by `DaemonComposition`).
final class SessionIDSource: Sendable {
    private let last = Atomic<UInt64>(0)

    /// A fresh session id.
    func next() -> SessionID {
        last.add(1, ordering: .relaxed).newValue
    }
}
