public import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Presence between goald nodes over PostgreSQL: LISTENs on `PostgresSchema.presenceChannel` on a connection of
/// its own and publishes with `pg_notify` on the same connection, in order, from a bounded buffer (the newest 1,024
/// payloads; older ones are dropped when the database is slower than the announcements: every node re-sends its
/// full list periodically). A lost connection is opened again after 0.1 s, doubling to 2 s; `receive(nil)` follows
/// every (re)connection. Payloads must stay under 8000 bytes (NOTIFY's limit).
///
/// Threading: `Sendable`; `receive` runs on the store's event loop or Swift's cooperative pool. Lifetime: from
/// `start` until `stop()`.
final class PostgresPresenceBus: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var sender: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopped = false
    }

    private let state = NIOLockedValueBox(State())
    private let outbox: AsyncStream<String>.Continuation
    private let payloads: AsyncStream<String>

    init() {
        (payloads, outbox) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1_024))
    }

    func start(
        configuration: PostgresStoreConfiguration,
        eventLoop: any EventLoop,
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
                        id: 1,
                        logger: PostgresLink.quiet
                    ).get()
                    let stopped = state.withLockedValue { state in
                        state.connection = connection
                        return state.stopped
                    }
                    if stopped { try await connection.close().get() }
                    delay = .milliseconds(100)
                    try await connection.listen(on: PostgresSchema.presenceChannel) { notifications in
                        receive(nil)
                        for try await notification in notifications { receive(notification.payload) }
                    }
                } catch {
                    logger.debug(
                        "the presence connection was lost; reconnecting",
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
        let payloads = self.payloads
        let sender = Task { [state] in
            for await payload in payloads {
                guard let connection = state.withLockedValue({ $0.connection }) else { continue }
                do {
                    _ = try await connection.query(
                        "SELECT pg_notify(\(PostgresSchema.presenceChannel), \(payload))",
                        logger: PostgresLink.quiet
                    )
                } catch {
                    logger.debug("a presence payload was not sent", metadata: ["goal.error": "\(error)"])
                }
            }
        }
        state.withLockedValue { state in
            state.task = task
            state.sender = sender
        }
    }

    func publish(_ payload: String) {
        outbox.yield(payload)
    }

    /// Stops gracefully: the payloads already handed over (a goodbye) are sent, waiting at most 1 s, then listening
    /// ends and the connection closes. Never blocks a thread (the daemon calls it from Swift's cooperative pool,
    /// which has as many threads as cores). Idempotent.
    func stop() async {
        outbox.finish()
        let sender = state.withLockedValue { $0.sender }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sender?.value }
            group.addTask { try? await Task.sleep(for: .seconds(1)) }  // cancelled once the goodbye is out
            await group.next()
            group.cancelAll()
        }
        let connection = halt()
        try? await connection?.close().get()  // the server ends the session either way
    }

    /// Stops at once (the store is closing; nothing more is sent) and closes the connection before the store's event
    /// loop stops. Returns at once when the bus never started or `stop()` already ran; else blocks only for the
    /// close, which runs on the store's event loop, never on the caller's. Idempotent.
    func stopNow() {
        outbox.finish()
        let connection = halt()
        try? connection?.close().wait()  // the server ends the session either way
    }

    /// Marks the bus stopped, cancels both tasks and hands over the connection to close (nil when none is open).
    private func halt() -> PostgresConnection? {
        state.withLockedValue { state in
            state.stopped = true
            state.task?.cancel()
            state.sender?.cancel()
            state.task = nil
            state.sender = nil
            defer { state.connection = nil }
            return state.connection
        }
    }
}
