/// Presence limits and timing (docs/PROTOCOL.md §4 "Presence").
///
/// Value type, `Sendable`; the defaults are production values, tests shorten the refresh and the node timeout.
public struct PresenceConfiguration: Sendable, Equatable {
    /// Presence announcements a session may make per second (token bucket refill; default 2).
    public var announcementsPerSecond: Double
    /// The announcement bucket's size (default 5). Announcements past it are coalesced: the latest one is applied
    /// when the bucket has a token again.
    public var announcementBurst: Double
    /// With several nodes: how often each node sends its full list to the others (default 5 s).
    public var refreshMilliseconds: Int
    /// With several nodes: a node from which nothing was heard for this long is gone, with its members (15 s).
    public var nodeTimeoutMilliseconds: Int
    /// The largest payload a node sends to the others (PostgreSQL NOTIFY takes less than 8000 bytes).
    public var maxRelayPayloadBytes: Int

    public init(
        announcementsPerSecond: Double = 2,
        announcementBurst: Double = 5,
        refreshMilliseconds: Int = 5_000,
        nodeTimeoutMilliseconds: Int = 15_000,
        maxRelayPayloadBytes: Int = 7_000
    ) {
        self.announcementsPerSecond = announcementsPerSecond
        self.announcementBurst = announcementBurst
        self.refreshMilliseconds = refreshMilliseconds
        self.nodeTimeoutMilliseconds = nodeTimeoutMilliseconds
        self.maxRelayPayloadBytes = maxRelayPayloadBytes
    }
}
