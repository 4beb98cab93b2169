import GoalModel
import Synchronization

/// The store's head when `Maintenance` last read it (every 2 s): another node sharing the store may have moved it
/// past this node's engine. `/healthz` reports it (`HealthReport`).
///
/// Threading: `Sendable`; one atomic. Lifetime: the daemon's (one, made by `DaemonComposition`).
final class ObservedStoreHead: Sendable {
    private let head: Atomic<UInt64>

    init(_ head: Revision) {
        self.head = Atomic(head)
    }

    /// The head last read.
    var revision: Revision { head.load(ordering: .relaxed) }

    /// Records a head just read from the store.
    func record(_ revision: Revision) {
        head.store(revision, ordering: .relaxed)
    }
}
