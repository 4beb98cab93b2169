import GoalStore

/// Calls `wake` with the notice of every notification a committing node sends on its league's head channel (its
/// version, and the batch when it fit: `PostgresHeadNotice`), and with nil each time listening (re)starts (a
/// subscription on the node's listening connection, `PostgresChannels`; the woken node reads the store to find out
/// what it missed). Notifications are best effort: goald also reads the store's head periodically, so a lost one
/// delays cross-node fan-out by at most that period and loses nothing.
///
/// Threading: `Sendable`; `wake` runs on Swift's cooperative pool and must not block. Lifetime: listens from `init`
/// until `stop()`.
final class PostgresHeadWatcher: Sendable {
    private let channels: PostgresChannels
    private let subscription: PostgresChannels.Subscription

    init(channels: PostgresChannels, channel: String, wake: @escaping @Sendable (HeadNotice?) -> Void) {
        self.channels = channels
        subscription = channels.subscribe(channel, purpose: "other nodes' commits") { payload in
            wake(payload.flatMap(PostgresHeadNotice.notice(from:)))  // nil: (re)started, or an unreadable payload
        }
    }

    /// Stops listening. Idempotent.
    /// - Returns: The subscription's cancelled task, which may still be sending its UNLISTEN on the store's event loop.
    @discardableResult
    func stop() -> Task<Void, Never>? {
        channels.unsubscribe(subscription)
    }
}
