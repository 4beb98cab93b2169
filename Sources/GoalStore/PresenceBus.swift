import GoalLocking

/// How goald nodes that share one store tell each other about their sessions' presence: short text payloads,
/// delivered to every node listening (the publisher included), best effort and unlogged. PostgreSQL carries them
/// with `pg_notify` (payloads must stay under 8000 bytes); `InProcessPresenceBus` connects nodes of one process.
///
/// Threading: `Sendable`; `publishPresence` never blocks (a payload that cannot be sent is dropped: every node
/// sends its full list periodically). `receive` runs on the bus's own thread and must not block. Lifetime: as the
/// store's; listening stops with `close()` (or `stopPresence()`).
public protocol PresenceBus: Sendable {
    /// Starts delivering every payload published on the bus; `receive(nil)` after each (re)connection (payloads
    /// sent while not listening are lost).
    func listenPresence(_ receive: @escaping @Sendable (String?) -> Void)
    /// Sends one payload to every listening node. Never blocks.
    func publishPresence(_ payload: String)
    /// Stops listening after sending what was already published (bounded; never blocks a thread). Idempotent.
    func stopPresence() async
}

/// A `PresenceBus` inside one process (several daemons in one test, or one daemon alone): `publishPresence`
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
