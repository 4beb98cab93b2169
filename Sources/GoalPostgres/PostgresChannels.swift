import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The one connection a goald node keeps per database for LISTEN: every league store it opened subscribes its
/// channels here (other nodes' commits, `PostgresHeadWatcher`; presence, `PostgresPresenceBus`) instead of holding a
/// listening connection of its own per channel.
///
/// Why one: PostgreSQL (15 to 17) wakes every listening session of a database on every NOTIFY, whatever its channel,
/// and each reads the whole notification queue to find its own. With two listening sessions per league per node, ten
/// leagues on three nodes woke 60 sessions on every commit: 40 % of the database's CPU under load
/// (docs/SCALING.md, "Many leagues on one database"). One per node makes it 3, however many leagues are open.
///
/// Each subscription is a `listen(on:)` of its own on the shared connection (postgres-nio sends LISTEN for a channel's
/// first listener and UNLISTEN when its last one ends). Its `receive` is called with nil each time its LISTEN starts
/// (at `subscribe`, and after every reconnection: notifications sent while nothing listened are lost, so the receiver
/// catches up some other way), then with every payload. The connection is opened at the first subscription and opened
/// again after it was lost, after 0.1 s doubling to 2 s; a LISTEN that fails on an open connection closes it, so every
/// subscriber starts again from a known point.
///
/// Threading: `Sendable`, lock-protected; `receive` runs on Swift's cooperative pool and must not block. Lifetime:
/// from `init` until `stop()`; `PostgresNodeShare` owns it and stops it before its event loop.
final class PostgresChannels: Sendable {
    /// A subscription, to end it with `unsubscribe`.
    struct Subscription: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Subscriber {
        let channel: String
        let purpose: String
        let receive: @Sendable (String?) -> Void
        /// Listening on the current connection; nil while there is none.
        var task: Task<Void, Never>?
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var connection: PostgresConnection?
        /// Connects, waits for the connection to end, connects again; started by the first subscription.
        var keeper: Task<Void, Never>?
        var stopped = false
    }

    /// The listening connection's `application_name`, as `pg_stat_activity` shows it.
    static let applicationName = "goald listen"

    private let configuration: PostgresStoreConfiguration
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    /// Connects on `eventLoop` to `configuration`'s database (its home namespace: channels are database-wide).
    init(configuration: PostgresStoreConfiguration, eventLoop: any EventLoop, logger: Logger) {
        var home = configuration
        home.namespace = .home
        self.configuration = home
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// The connection while one is open: presence sends its `pg_notify` on it, in order with the listening.
    var connection: PostgresConnection? {
        state.withLockedValue { $0.connection }
    }

    /// Starts listening on `channel` (connecting first when this is the first subscription).
    /// - Parameter purpose: What the channel is for, in the debug log ("other nodes' commits").
    @discardableResult
    func subscribe(
        _ channel: String,
        purpose: String,
        receive: @escaping @Sendable (String?) -> Void
    ) -> Subscription {
        state.withLockedValue { state in
            state.nextID += 1
            let id = state.nextID
            guard !state.stopped else { return Subscription(id: id) }
            var subscriber = Subscriber(channel: channel, purpose: purpose, receive: receive)
            if let connection = state.connection {
                subscriber.task = listen(id, subscriber, on: connection)
            }
            state.subscribers[id] = subscriber
            if state.keeper == nil { state.keeper = Task { await self.keepConnected() } }
            return Subscription(id: id)
        }
    }

    /// Stops listening for `subscription`: `receive` is not called after this returns (unless a call is running).
    /// The returned task, cancelled, sends the UNLISTEN. Idempotent.
    @discardableResult
    func unsubscribe(_ subscription: Subscription) -> Task<Void, Never>? {
        state.withLockedValue { state in
            let task = state.subscribers.removeValue(forKey: subscription.id)?.task
            task?.cancel()
            return task
        }
    }

    /// Stops every subscription and closes the connection, waiting at most 10 s for the connection being opened or
    /// closed (postgres-nio's connect timeout bounds a connect in flight). Idempotent.
    func stop() async {
        let (keeper, tasks, connection) = state.withLockedValue { state in
            state.stopped = true
            state.keeper?.cancel()
            let tasks = state.subscribers.values.compactMap(\.task)
            for task in tasks { task.cancel() }
            state.subscribers = [:]
            defer { state.connection = nil }
            return (state.keeper, tasks, state.connection)
        }
        await BoundedWait.wait(atMost: .seconds(10)) {
            try? await connection?.close().get()  // closed already (the server, a failed LISTEN): nothing to close
            for task in tasks { await task.value }
            await keeper?.value
        }
    }

    /// The keeper's loop: one connection at a time, every subscriber listening on it, until `stop()`.
    private func keepConnected() async {
        var delay: Duration = .milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    on: eventLoop,
                    configuration: try configuration.connectionConfiguration(applicationName: Self.applicationName),
                    id: 0,
                    logger: PostgresLink.quiet
                ).get()
                let stopped = state.withLockedValue { state in
                    guard !state.stopped else { return true }
                    state.connection = connection
                    for (id, subscriber) in state.subscribers {
                        state.subscribers[id]?.task = listen(id, subscriber, on: connection)
                    }
                    return false
                }
                if stopped {
                    try? await connection.close().get()  // never handed out: the server ends the session either way
                    return
                }
                delay = .milliseconds(100)
                logger.debug("listening connection open", metadata: ["goal.store": "\(configuration)"])
                // Waits for the connection to end, however it ends (the server, the network, a failed LISTEN).
                try? await connection.closeFuture.get()  // a failure is an ending too: reconnect either way
            } catch {
                logger.debug(
                    "the listening connection could not be opened; trying again",
                    metadata: ["goal.error": "\(error)", "goal.retry": "\(delay)"]
                )
            }
            state.withLockedValue { state in
                state.connection = nil
                for id in state.subscribers.keys { state.subscribers[id]?.task = nil }  // ended with the connection
            }
            try? await Task.sleep(for: delay)  // cancelled by `stop()`: the loop ends at its condition
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// One subscriber's LISTEN on `connection`; when it fails on a connection still open, closes the connection, so
    /// the keeper opens another and every subscriber starts listening again (each told with nil).
    private func listen(_ id: Int, _ subscriber: Subscriber, on connection: PostgresConnection) -> Task<Void, Never> {
        let state = self.state
        let logger = self.logger
        /// Hands `payload` over unless the subscription ended (a notification already on its way when it did).
        @Sendable func deliver(_ payload: String?) {
            guard state.withLockedValue({ $0.subscribers[id] != nil }) else { return }
            subscriber.receive(payload)
        }
        return Task {
            do {
                try await connection.listen(on: subscriber.channel) { notifications in
                    deliver(nil)  // whatever was sent while nothing listened
                    for try await notification in notifications { deliver(notification.payload) }
                }
            } catch {
                guard !Task.isCancelled else { return }  // unsubscribed, or stopping
                logger.debug(
                    "listening for \(subscriber.purpose) ended; reconnecting",
                    metadata: ["goal.error": "\(error)", "goal.channel": "\(subscriber.channel)"]
                )
            }
            guard !Task.isCancelled, !connection.isClosed else { return }
            try? await connection.close().get()  // the keeper connects again; closed already: the same
        }
    }
}
