import GoalLocking
public import GoalStore

/// A `PresenceBus` inside one process (several daemons in one test): `publishPresence`
/// calls every listener synchronously, in the caller's thread.
///
/// Threading: `Sendable`, lock-protected. Lifetime: the creator's.
public final class InProcessPresenceBus: PresenceBus {
    private let listeners = LockedValue<[Int: @Sendable (String?) -> Void]>([:])
    private let nextID = LockedValue(0)

    public init() {}

    /// A view of this bus for one node: its listener is its own, so `stopPresence()` stops only that node.
    public func node() -> any PresenceBus {
        Node(
            bus: self,
            id: nextID.withLock {
                $0 += 1
                return $0
            }
        )
    }

    public func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) {
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        add(id, receive)
    }

    public func publishPresence(_ payload: String) {
        let current = listeners.withLock { Array($0.values) }
        for receive in current { receive(payload) }
    }

    public func stopPresence() async {
        listeners.withLock { $0.removeAll() }
    }

    fileprivate func add(_ id: Int, _ receive: @escaping @Sendable (String?) -> Void) {
        listeners.withLock { $0[id] = receive }
        receive(nil)
    }

    fileprivate func remove(_ id: Int) {
        _ = listeners.withLock { $0.removeValue(forKey: id) }
    }

    private struct Node: PresenceBus {
        let bus: InProcessPresenceBus
        let id: Int

        func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) { bus.add(id, receive) }
        func publishPresence(_ payload: String) { bus.publishPresence(payload) }
        func stopPresence() async { bus.remove(id) }
    }
}
