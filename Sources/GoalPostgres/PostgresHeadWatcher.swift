import GoalStore
import Logging
import NIOCore

/// Calls `wake` with the notice of every notification a committing node sends on its league's head channel (its
/// version, and the batch when it fit: `PostgresHeadNotice`), and with nil once after each (re)connection (a
/// `PostgresListener`; the woken node reads the store to find out what it missed). Notifications are best effort:
/// goald also reads the store's head periodically, so a lost one delays cross-node fan-out by at most that period
/// and loses nothing.
///
/// Threading: `Sendable`; `wake` runs on the store's event loop or Swift's cooperative pool, and must not block.
/// Lifetime: listens from `init` until `stop()`, which closes its connection.
final class PostgresHeadWatcher: Sendable {
    private let listener: PostgresListener

    init(
        configuration: PostgresStoreConfiguration,
        eventLoop: any EventLoop,
        logger: Logger,
        wake: @escaping @Sendable (HeadNotice?) -> Void
    ) {
        listener = PostgresListener(
            configuration: configuration,
            eventLoop: eventLoop,
            channel: configuration.namespace.headChannel,
            connectionID: 0,
            purpose: "other nodes' commits",
            logger: logger
        ) { payload in
            wake(payload.flatMap(PostgresHeadNotice.notice(from:)))  // nil: (re)connected, or an unreadable payload
        }
    }

    /// Stops listening and closes the connection. Idempotent.
    /// - Returns: The listener's cancelled task (see `PostgresListener.stop()`).
    @discardableResult
    func stop() -> Task<Void, Never>? {
        listener.stop()
    }
}
