import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Presence between goald nodes over PostgreSQL: LISTENs on the league's presence channel (a
/// `PostgresListener`, reconnecting on its own) and publishes with `pg_notify` on the same connection, in order,
/// from a bounded buffer (the newest 1,024 payloads; older ones are dropped when the database is slower than the
/// announcements: every node re-sends its full list periodically). `receive(nil)` follows every (re)connection.
/// Payloads must stay under 8000 bytes (NOTIFY's limit).
///
/// Threading: `Sendable`; `receive` runs on the store's event loop or Swift's cooperative pool. Lifetime: from
/// `start` until `stop()` (the daemon's graceful stop) or `stopNow()` (the store's close).
final class PostgresPresenceBus: Sendable {
    private struct State {
        var listener: PostgresListener?
        var sender: Task<Void, Never>?
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
        let listener = PostgresListener(
            configuration: configuration,
            eventLoop: eventLoop,
            channel: configuration.namespace.presenceChannel,
            connectionID: 1,
            purpose: "other nodes' presence",
            logger: logger,
            receive: receive
        )
        let payloads = self.payloads
        let sender = Task {
            for await payload in payloads {
                guard let connection = listener.connection else { continue }
                do {
                    _ = try await connection.query(
                        "SELECT pg_notify(\(configuration.namespace.presenceChannel), \(payload))",
                        logger: PostgresLink.quiet
                    )
                } catch {
                    logger.debug("a presence payload was not sent", metadata: ["goal.error": "\(error)"])
                }
            }
        }
        state.withLockedValue { state in
            state.listener = listener
            state.sender = sender
        }
    }

    func publish(_ payload: String) {
        outbox.yield(payload)
    }

    /// Stops gracefully: the payloads already handed over (a goodbye) are sent, waiting at most 1 s, then listening
    /// ends and the connection closes, waiting at most 1 s more. Never blocks a thread (the daemon calls it from
    /// Swift's cooperative pool) and never waits without a bound: a query or a close can wait on a connection that
    /// is going away (a full test run once hung here), and the store's own close ends what is left. Idempotent.
    func stop() async {
        outbox.finish()
        let sender = state.withLockedValue { $0.sender }
        await BoundedWait.wait(atMost: .seconds(1)) { await sender?.value }
        let listener = halt()
        await BoundedWait.wait(atMost: .seconds(1)) { await listener?.stop() }
    }

    /// Stops at once (the store is closing; nothing more is sent) and closes the connection before the store's event
    /// loop stops. Returns at once when the bus never started or `stop()` already ran. Idempotent.
    ///
    /// - Returns: The cancelled tasks (the sender's, the listener's): they may still be using the store's event loop.
    @discardableResult
    func stopNow() -> [Task<Void, Never>] {
        outbox.finish()
        let sender = state.withLockedValue { $0.sender }
        let listening = halt()?.stop()
        return [sender, listening].compactMap { $0 }
    }

    /// Cancels the sender and hands over the listener to stop (nil when none runs).
    private func halt() -> PostgresListener? {
        state.withLockedValue { state in
            state.sender?.cancel()
            state.sender = nil
            defer { state.listener = nil }
            return state.listener
        }
    }
}
