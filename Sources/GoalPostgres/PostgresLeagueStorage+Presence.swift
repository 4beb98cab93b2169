public import GoalStore

/// Presence between the goald nodes that share this database, over `pg_notify` (`PostgresPresenceBus`).
extension PostgresLeagueStorage: PresenceBus {
    public func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) {
        presence.start(
            channels: shared.channels,
            channel: configuration.namespace.presenceChannel,
            logger: logger,
            receive: receive
        )
    }

    public func publishPresence(_ payload: String) {
        presence.publish(payload)
    }

    public func stopPresence() async {
        await presence.stop()
    }
}
