import GoalWire

/// How the exactly-once table is bounded (docs/PROTOCOL.md §6): a record not used for `maximumAge` is forgotten
/// by the periodic maintenance, and at most `maximumCount` instances have a record. When the table is full, a
/// mutation from an instance without a record is answered `overloaded{seq}` (nothing is evicted early, so no
/// client loses its exactly-once guarantee before `maximumAge`).
///
/// Value type, `Sendable`.
public struct ClientRecordPolicy: Sendable, Equatable {
    /// The shortest `maximumAge` allowed: the age every client may rely on (`WireProtocol`).
    public static let minimumAge: Duration = .seconds(WireProtocol.minimumClientRecordAgeSeconds)

    /// A record last used longer ago than this is forgotten (default 30 days; never below `minimumAge`).
    public var maximumAge: Duration
    /// The most client instances with a record (default 100,000).
    public var maximumCount: Int

    /// - Parameters:
    ///   - maximumAge: Raised to `minimumAge` when lower.
    ///   - maximumCount: At least 1.
    public init(maximumAge: Duration = .seconds(30 * 24 * 3600), maximumCount: Int = 100_000) {
        self.maximumAge = max(maximumAge, Self.minimumAge)
        self.maximumCount = max(1, maximumCount)
    }

    /// 30 days, 100,000 instances.
    public static let `default` = ClientRecordPolicy()
}
