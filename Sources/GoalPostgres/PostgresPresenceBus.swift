import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Presence between goald nodes over PostgreSQL: LISTENs on the league's presence channel (a subscription on the
/// node's listening connection, `PostgresChannels`) and publishes with `pg_notify` on that connection, in order,
/// from a bounded buffer (the newest 1,024 payloads; older ones are dropped when the database is slower than the
/// announcements: every node re-sends its full list periodically). `receive(nil)` follows every (re)connection.
/// Payloads must stay under 8000 bytes (NOTIFY's limit).
///
/// Threading: `Sendable`; `receive` runs on Swift's cooperative pool. Lifetime: from
/// `start` until `stop()` (the daemon's graceful stop) or `stopNow()` (the store's close).
final class PostgresPresenceBus: Sendable {
    private struct State {
        var channels: PostgresChannels?
        var subscription: PostgresChannels.Subscription?
        var sender: Task<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())
    private let outbox: AsyncStream<String>.Continuation
    private let payloads: AsyncStream<String>

    init() {
        (payloads, outbox) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1_024))
    }

    func start(
        channels: PostgresChannels,
        channel: String,
        logger: Logger,
        receive: @escaping @Sendable (String?) -> Void
    ) {
        let subscription = channels.subscribe(channel, purpose: "other nodes' presence", receive: receive)
        let payloads = self.payloads
        let sender = Task {
            for await payload in payloads {
                guard let connection = channels.connection else { continue }
                do {
                    _ = try await connection.query(
                        "SELECT pg_notify(\(channel), \(payload))",
                        logger: PostgresLink.quiet
                    )
                } catch {
                    logger.debug("a presence payload was not sent", metadata: ["goal.error": "\(error)"])
                }
            }
        }
        state.withLockedValue { state in
            state.channels = channels
            state.subscription = subscription
            state.sender = sender
        }
    }

    func publish(_ payload: String) {
        outbox.yield(payload)
    }

    /// Stops gracefully: the payloads already handed over (a goodbye) are sent, waiting at most 1 s, then listening
    /// ends (its UNLISTEN sent), waiting at most 1 s more. Never blocks a thread (the daemon calls it from
    /// Swift's cooperative pool) and never waits without a bound: a query or a close can wait on a connection that
    /// is going away (a full test run once hung here), and the store's own close ends what is left. Idempotent.
    func stop() async {
        outbox.finish()
        let sender = state.withLockedValue { $0.sender }
        await BoundedWait.wait(atMost: .seconds(1)) { await sender?.value }
        let listening = halt()
        await BoundedWait.wait(atMost: .seconds(1)) { await listening?.value }
    }

    /// Stops at once (the store is closing; nothing more is sent). Returns at once when the bus never started or
    /// `stop()` already ran. Idempotent.
    ///
    /// - Returns: The cancelled tasks (the sender's, the listener's): they may still be using the store's event loop.
    @discardableResult
    func stopNow() -> [Task<Void, Never>] {
        outbox.finish()
        let sender = state.withLockedValue { $0.sender }
        let listening = halt()
        return [sender, listening].compactMap { $0 }
    }

    /// Cancels the sender and ends the subscription; hands over its cancelled task (nil when none runs).
    private func halt() -> Task<Void, Never>? {
        state.withLockedValue { state in
            state.sender?.cancel()
            state.sender = nil
            defer {
                state.channels = nil
                state.subscription = nil
            }
            guard let channels = state.channels, let subscription = state.subscription else { return nil }
            return channels.unsubscribe(subscription)
        }
    }
}
