/// How goald nodes that share one store tell each other about their sessions' presence: short text payloads,
/// delivered to every node listening (the publisher included), best effort and unlogged. PostgreSQL carries them
/// with `pg_notify` (payloads must stay under 8000 bytes); in tests, GoalTestSupport's `InProcessPresenceBus` connects
/// the nodes of one process.
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
