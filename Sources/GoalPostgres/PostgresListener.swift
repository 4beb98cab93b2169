import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A connection of its own that LISTENs on one channel and hands every notification's payload to `receive`, and
/// nil once after each (re)connection (notifications sent while it was not listening are lost, so the receiver
/// catches up some other way). A lost connection is opened again after 0.1 s, doubling to 2 s. Other nodes'
/// commits (`PostgresHeadWatcher`) and presence (`PostgresPresenceBus`) each use one; postgres-nio's `listen` is
/// per connection, and no pool fits a connection that is held for the process's lifetime.
///
/// Threading: `Sendable`, lock-protected; `receive` runs on the store's event loop or Swift's cooperative pool and
/// must not block. Lifetime: listens from `init` until `stop()`, which closes its connection; the owner stops it
/// before the store's event loop shuts down (connecting on a shut-down loop traps).
final class PostgresListener: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopped = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts listening.
    /// - Parameters:
    ///   - connectionID: postgres-nio's id for the connection (it shows in its logs).
    ///   - purpose: What the channel is for, in the debug log ("other nodes' commits").
    init(
        configuration: PostgresStoreConfiguration,
        eventLoop: any EventLoop,
        channel: String,
        connectionID: Int,
        purpose: String,
        logger: Logger,
        receive: @escaping @Sendable (String?) -> Void
    ) {
        let task = Task { [state] in
            var delay: Duration = .milliseconds(100)
            while !Task.isCancelled {
                // Stopped: the store's event loop may be shutting down; connecting to it would trap.
                if state.withLockedValue({ $0.stopped }) { return }
                do {
                    let connection = try await PostgresConnection.connect(
                        on: eventLoop,
                        configuration: try configuration.connectionConfiguration(),
                        id: connectionID,
                        logger: PostgresLink.quiet
                    ).get()
                    let stopped = state.withLockedValue { state in
                        state.connection = connection
                        return state.stopped
                    }
                    if stopped { try await connection.close().get() }
                    delay = .milliseconds(100)
                    logger.debug("listening for \(purpose)", metadata: ["goal.store": "\(configuration)"])
                    try await connection.listen(on: channel) { notifications in
                        receive(nil)  // whatever was sent while this connection was not listening
                        for try await notification in notifications { receive(notification.payload) }
                    }
                } catch {
                    logger.debug(
                        "the connection listening for \(purpose) was lost; reconnecting",
                        metadata: ["goal.error": "\(error)", "goal.retry": "\(delay)"]
                    )
                }
                let ended = state.withLockedValue { state in
                    defer { state.connection = nil }
                    return state.connection
                }
                // Closed here whether listening failed or ended (a stop cancels it): postgres-nio traps when an open
                // connection is freed, and `stop()` may have found no connection to close.
                try? await ended?.close().get()  // already closed by the server or by `stop()`: nothing left to do
                try? await Task.sleep(for: delay)  // cancelled by `stop()`: the loop ends at its condition
                delay = min(delay * 2, .seconds(2))
            }
        }
        state.withLockedValue { $0.task = task }
    }

    /// The listening connection while there is one (to send on it in order with the listening, as presence does).
    var connection: PostgresConnection? {
        state.withLockedValue { $0.connection }
    }

    /// Stops listening and closes the connection: blocks only for the close, which runs on the store's event loop,
    /// never on the caller's thread. Idempotent.
    ///
    /// - Returns: The listening task, cancelled; it may still be connecting or closing a connection on the store's
    ///   event loop, so the owner shuts that loop down only once the task has ended.
    @discardableResult
    func stop() -> Task<Void, Never>? {
        let (connection, task) = halt()
        try? connection?.close().wait()  // the server ends the session either way
        return task
    }

    /// Stops listening and closes the connection without blocking a thread. Idempotent.
    func stop() async {
        let (connection, _) = halt()
        try? await connection?.close().get()  // the server ends the session either way
    }

    /// Marks the listener stopped, cancels its task and hands over the connection to close (nil when none is open)
    /// and the task.
    private func halt() -> (PostgresConnection?, Task<Void, Never>?) {
        state.withLockedValue { state in
            state.stopped = true
            state.task?.cancel()
            defer { state.connection = nil }
            return (state.connection, state.task)
        }
    }
}
