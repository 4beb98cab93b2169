import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// LISTENs on `PostgresSchema.headChannel` on a connection of its own and calls `wake` with the committed version
/// for every notification a committing node sends, and with nil once after each (re)connection (notifications sent while it was not listening are
/// lost; the woken node reads the store to find out). A lost connection is opened again after 0.1 s, doubling to
/// 2 s. Notifications are only a doorbell: goald also reads the store's head periodically, so a lost one delays
/// cross-node fan-out by at most that period and loses nothing.
///
/// Threading: `Sendable`; `wake` runs on the store's event loop or Swift's cooperative pool, and must not block.
/// Lifetime: listens from `init` until `stop()`, which closes its connection.
final class PostgresHeadWatcher: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopped = false
    }

    private let state = NIOLockedValueBox(State())

    init(
        configuration: PostgresStoreConfiguration,
        eventLoop: any EventLoop,
        logger: Logger,
        wake: @escaping @Sendable (StoreVersion?) -> Void
    ) {
        let task = Task { [state] in
            var delay: Duration = .milliseconds(100)
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        on: eventLoop,
                        configuration: try configuration.connectionConfiguration(),
                        id: 0,
                        logger: PostgresLink.quiet
                    ).get()
                    let stopped = state.withLockedValue { state in
                        state.connection = connection
                        return state.stopped
                    }
                    if stopped { try await connection.close().get() }
                    delay = .milliseconds(100)
                    logger.debug("listening for other nodes' commits", metadata: ["goal.store": "\(configuration)"])
                    try await connection.listen(on: PostgresSchema.headChannel) { notifications in
                        wake(nil)  // whatever was committed while this connection was not listening
                        for try await notification in notifications { wake(StoreVersion(notification.payload)) }
                    }
                } catch {
                    logger.debug(
                        "the connection listening for other nodes' commits was lost; reconnecting",
                        metadata: ["goal.error": "\(error)", "goal.retry": "\(delay)"]
                    )
                }
                // Cancelled by `stop()`: the loop ends at its condition.
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
        state.withLockedValue { $0.task = task }
    }

    /// Stops listening and closes the connection. Idempotent.
    func stop() {
        let (task, connection) = state.withLockedValue { state in
            state.stopped = true
            defer { state.connection = nil }
            return (state.task, state.connection)
        }
        task?.cancel()
        try? connection?.close().wait()  // the server ends the session either way
    }
}
