public import Foundation
public import GoalModel
public import GoalWire

/// What a `GoalClient` needs besides its transport: the token, the servers, the league, timing and backoff.
///
/// `Sendable` value type with documented defaults; only executables read it from flags, environment or files.
public struct ClientConfiguration: Sendable {
    /// The bearer token sent in `hello` (never logged).
    public var token: String
    /// The servers, in failover order, as people should see them ("wss://a.example:7443"): nodes of one league
    /// (one database). The client connects to the first; when a connection is lost or cannot be opened it resumes
    /// on the next (round robin), and backs off only once every server has failed in a row (`ReconnectMachine`).
    /// The transport opens connections by index into this list (`Transport.connect(server:events:)`). The
    /// initializers never leave it empty.
    public var servers: [String]
    /// The league the client follows (`hello.league`); nil (the default) names none: the server's default league,
    /// with the hello byte for byte what it was before leagues. A client follows one league for its life: its
    /// replica, position and outbox belong to it, so a `ClientStateStore` given to the client must be this league's
    /// (another league is another client with another store). The server refuses a league it does not have
    /// (`unknown_league`, 4404) or the token may not see (`league_forbidden`, 4405): a terminal stop.
    public var league: LeagueSlug?
    /// `all` (default): backlog or snapshot, then every changeset; `acks` for scripts that need no stream.
    public var stream: ClientMessage.StreamSelection
    /// What the hello asks of presence: `all` (default: listed, and the list arrives in `GoalClient.presence`),
    /// `observe` (the list without being listed) or `none`.
    public var presence: PresenceSubscription = .all
    /// Seconds between client pings while connected (default 15, `HeartbeatPolicy.standard`).
    public var pingInterval: TimeInterval
    /// Seconds without any inbound frame after which the peer is dead (default 40, `HeartbeatPolicy.standard`).
    public var idleTimeout: TimeInterval
    /// Reconnect backoff (default `BackoffPolicy.standard`).
    public var backoff: BackoffPolicy
    /// The heartbeat the client runs: `pingInterval` and `idleTimeout` together.
    public var heartbeat: HeartbeatPolicy { HeartbeatPolicy(pingInterval: pingInterval, idleTimeout: idleTimeout) }
    /// While a backlog is read, the replica is published every this many changesets and at `caught_up`
    /// (default 256); live changesets are published one by one.
    public var backlogBatch: Int

    /// Creates a configuration for one server (`servers == [serverName]`).
    public init(
        token: String,
        serverName: String,
        stream: ClientMessage.StreamSelection = .all,
        pingInterval: TimeInterval = HeartbeatPolicy.standard.pingInterval,
        idleTimeout: TimeInterval = HeartbeatPolicy.standard.idleTimeout,
        backoff: BackoffPolicy = .standard,
        backlogBatch: Int = 256
    ) {
        self.init(
            token: token,
            servers: [serverName],
            stream: stream,
            pingInterval: pingInterval,
            idleTimeout: idleTimeout,
            backoff: backoff,
            backlogBatch: backlogBatch
        )
    }

    /// Creates a configuration for several servers in failover order; an empty list counts as one unnamed server.
    public init(
        token: String,
        servers: [String],
        stream: ClientMessage.StreamSelection = .all,
        pingInterval: TimeInterval = HeartbeatPolicy.standard.pingInterval,
        idleTimeout: TimeInterval = HeartbeatPolicy.standard.idleTimeout,
        backoff: BackoffPolicy = .standard,
        backlogBatch: Int = 256
    ) {
        self.token = token
        self.servers = servers.isEmpty ? [""] : servers
        self.stream = stream
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.backoff = backoff
        self.backlogBatch = max(backlogBatch, 1)
    }

    /// The servers as people should see them, for status lines: "a:7443" or "a:7443, b:7443".
    public var serverName: String { servers.joined(separator: ", ") }

    /// The name of server `index` (wrapping around the list; "" if the list was emptied).
    public func serverName(at index: Int) -> String {
        guard !servers.isEmpty else { return "" }
        return servers[((index % servers.count) + servers.count) % servers.count]
    }

    /// A copy with one field changed: `configuration.with { $0.pingInterval = 5 }`.
    public func with(_ change: (inout ClientConfiguration) -> Void) -> ClientConfiguration {
        var copy = self
        change(&copy)
        return copy
    }
}
