public import Foundation
public import GoalWire

/// What a `GoalClient` needs besides its transport: the token, timing and backoff.
///
/// `Sendable` value type with documented defaults; only executables read it from flags, environment or files.
public struct ClientConfiguration: Sendable {
    /// The bearer token sent in `hello` (never logged).
    public var token: String
    /// The server as people should see it ("localhost:7443"), for status lines.
    public var serverName: String
    /// `all` (default): backlog or snapshot, then every changeset; `acks` for scripts that need no stream.
    public var stream: ClientMessage.StreamSelection
    /// Seconds between client pings while connected (default 15).
    public var pingInterval: TimeInterval
    /// Seconds without any inbound frame after which the peer is dead (default 40, `WireProtocol`).
    public var idleTimeout: TimeInterval
    /// Reconnect backoff (default `BackoffPolicy.standard`).
    public var backoff: BackoffPolicy
    /// While a backlog is read, the replica is published every this many changesets and at `caught_up`
    /// (default 256); live changesets are published one by one.
    public var backlogBatch: Int

    public init(
        token: String,
        serverName: String,
        stream: ClientMessage.StreamSelection = .all,
        pingInterval: TimeInterval = 15,
        idleTimeout: TimeInterval = TimeInterval(WireProtocol.idleTimeoutSeconds),
        backoff: BackoffPolicy = .standard,
        backlogBatch: Int = 256
    ) {
        self.token = token
        self.serverName = serverName
        self.stream = stream
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.backoff = backoff
        self.backlogBatch = max(backlogBatch, 1)
    }

    /// A copy with one field changed: `configuration.with { $0.pingInterval = 5 }`.
    public func with(_ change: (inout ClientConfiguration) -> Void) -> ClientConfiguration {
        var copy = self
        change(&copy)
        return copy
    }
}
