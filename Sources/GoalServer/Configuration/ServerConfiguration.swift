import Foundation
public import GoalModel
public import GoalStore

/// Everything a running goald needs to know, as one value: where it listens, where its state lives, how TLS is
/// set up, and every limit. Only executables read flags, environment and files; they build this value and hand it
/// to `GoalDaemon`. Tests build it directly (`ServerConfiguration.forTesting(stateDirectory:)`).
///
/// Value type, `Sendable`. Defaults are the documented defaults of `Config/goald.yaml`.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address the WebSocket/HTTP listener binds ("127.0.0.1", "::", "0.0.0.0" …).
    public var host: String
    /// The TCP port; 0 picks a free port (tests), reported through `GoalDaemon.boundAddress`.
    public var port: Int
    /// The directory holding `goald.sqlite`, `tls/` (generated certificates) and `admin-token`.
    public var stateDirectory: String
    /// Extra names and addresses the generated server certificate covers, besides localhost, 127.0.0.1 and ::1.
    public var publicHosts: [String]
    /// TLS material: files given by the operator, or a development CA generated on first start.
    public var tls: TLSSource
    /// An optional second, plaintext listener serving only `GET /metrics` and `GET /healthz`; it must bind a
    /// loopback address. When nil, `/metrics` is served on the main listener to admin tokens only.
    public var metricsListener: MetricsListener?
    /// Connection, message, rate and queue limits.
    public var limits: ServerLimits
    /// How long the changeset log is kept.
    public var retention: RetentionPolicy
    /// How long and how many exactly-once records are kept.
    public var clientRecords: ClientRecordPolicy
    /// How often the retention pruner and the WAL checkpoint run.
    public var maintenanceIntervalSeconds: Int
    /// Event-loop threads; 0 means one per core.
    public var eventLoopThreads: Int
    /// This node's name in `/healthz`, `welcome`, presence ids, metrics and logs; unique among the live goald on one
    /// shared store (the daemon claims it there and refuses to start when another live node holds it). nil (the
    /// default): the id kept in the state directory (`NodeIdentity`), made on first start.
    public var nodeID: String?
    /// The role of an HTTP API request without `Authorization` (`http.anonymousRole`); nil (the default) answers
    /// such a request 401. For clients that cannot send a header (SwiftGoal has only a base URL setting); anyone
    /// who reaches the port then has this role, so only on a trusted network (docs/HTTP.md §Auth).
    public var httpAnonymousRole: Role?
    /// Whether `/v1/stream` accepts RFC 7692 permessage-deflate offers (`websocket.permessageDeflate`, default on):
    /// each changeset is then compressed once and the same bytes go to every session that negotiated it.
    public var permessageDeflate: Bool
    /// How long a league other than the default one stays loaded without a session or an HTTP request
    /// (`leagues.idleSeconds`, default 300): then its engine, hub and store are let go until it is used again.
    public var leagueIdleSeconds: Double = 300

    public init(
        host: String = "127.0.0.1",
        port: Int = 7443,
        stateDirectory: String,
        publicHosts: [String] = [],
        tls: TLSSource = .generated,
        metricsListener: MetricsListener? = nil,
        limits: ServerLimits = ServerLimits(),
        retention: RetentionPolicy = .default,
        clientRecords: ClientRecordPolicy = .default,
        maintenanceIntervalSeconds: Int = 60,
        eventLoopThreads: Int = 0,
        nodeID: String? = nil,
        httpAnonymousRole: Role? = nil,
        permessageDeflate: Bool = true
    ) {
        self.permessageDeflate = permessageDeflate
        self.host = host
        self.port = port
        self.stateDirectory = stateDirectory
        self.publicHosts = publicHosts
        self.tls = tls
        self.metricsListener = metricsListener
        self.limits = limits
        self.retention = retention
        self.clientRecords = clientRecords
        self.maintenanceIntervalSeconds = maintenanceIntervalSeconds
        self.eventLoopThreads = eventLoopThreads
        self.nodeID = nodeID
        self.httpAnonymousRole = httpAnonymousRole
    }

    /// The SQLite database inside the state directory.
    public var databasePath: String { stateDirectory + "/goald.sqlite" }
    /// The file the first admin token is written to (mode 0600).
    public var adminTokenPath: String { stateDirectory + "/admin-token" }
    /// The directory generated TLS material goes to.
    public var generatedTLSDirectory: String { stateDirectory + "/tls" }

    /// Where the listener's certificate and key come from.
    public enum TLSSource: Sendable, Equatable {
        /// A development CA and a server certificate generated under `<state>/tls` on first start and reused after.
        case generated
        /// PEM files provided by the operator (the chain in `certificate`, the key in `privateKey`).
        case files(certificate: String, privateKey: String)
        /// PEM text given inline (e.g. through `GOALD_TLS_CERTIFICATE_PEM` / `GOALD_TLS_PRIVATE_KEY_PEM` from a
        /// container's secret store): the chain, then the key, which never appears in descriptions or logs.
        case pem(certificateChain: String, privateKey: SecretText)
    }

    /// The loopback-only plaintext metrics listener.
    public struct MetricsListener: Sendable, Equatable {
        public var host: String
        public var port: Int
        public init(host: String = "127.0.0.1", port: Int = 9464) {
            self.host = host
            self.port = port
        }
    }
}

/// The daemon's limits: inbound limits and connection caps (docs/RULES.md "Security", docs/PROTOCOL.md §1
/// "Limits") and the bounds that leave no queue unbounded (docs/RULES.md "Applied vs durable").
///
/// Value type, `Sendable`. Every field has a documented default; `with(…)`-style mutation is plain `var`.
public struct ServerLimits: Sendable, Equatable {
    /// Total concurrent connections; nil means the open-file limit − 256, computed at start.
    public var maxConnections: Int?
    /// Concurrent connections from one IP address.
    public var maxConnectionsPerIP: Int
    /// Concurrent authenticated sessions of one token.
    public var maxConnectionsPerToken: Int
    /// The largest inbound message after aggregating fragments (64 KiB).
    public var maxInboundMessageBytes: Int
    /// The most bytes accepted before `hello` (4 KiB).
    public var maxBytesBeforeHello: Int
    /// TLS + upgrade + hello must complete within this many milliseconds (10 s).
    public var handshakeTimeoutMilliseconds: Int
    /// A peer from which nothing has been read for this long is dead (40 s).
    public var idleTimeoutMilliseconds: Int
    /// The server pings every session this often (15 s).
    public var pingIntervalMilliseconds: Int
    /// Mutations per second a session may send (token bucket refill), and the bucket's size.
    public var mutationsPerSecond: Double
    public var mutationBurst: Double
    /// Presence announcements' rate and, with several nodes, how they share presence (docs/PROTOCOL.md §4).
    public var presence = PresenceConfiguration()
    /// Frames per second of any kind (pings included) a session may send, and the bucket's size; past it: 4029.
    public var framesPerSecond: Double
    public var frameBurst: Double
    /// A session's outbound queue bound in bytes; past it the session is a slow consumer (4008).
    public var sessionQueueBytes: Int
    /// All sessions' queued bytes together; past it the largest queue is evicted as a slow consumer.
    public var globalQueueBytes: Int
    /// After 4008 is queued, the connection is aborted if it has not closed within this many milliseconds (5 s).
    public var slowConsumerAbortMilliseconds: Int
    /// Mutations the engine holds: waiting to be decided, or decided and waiting to be durable (the batch that
    /// fills while a write is in flight); past it sessions get `overloaded{seq}` and stop reading.
    public var engineInboxCapacity: Int
    /// How long a session told `overloaded` stops reading, in milliseconds.
    public var overloadedRetryMilliseconds: Int
    /// Changesets read from the log per backlog page.
    public var backlogPageSize: Int
    /// Snapshots built at the same time, at most.
    public var concurrentSnapshotBuilds: Int
    /// Fan-out writes sessions in slices; after each, while two or more batches committed since the pass began wait
    /// (`SlicePacing`), the event loop pauses as long as the slice took, at most this many milliseconds, so
    /// changesets committed meanwhile share one write per session; 0 = no pause (20 ms).
    public var fanoutCoalesceMilliseconds: Int

    public init(
        maxConnections: Int? = nil,
        maxConnectionsPerIP: Int = 512,
        maxConnectionsPerToken: Int = 2_048,
        maxInboundMessageBytes: Int = 64 * 1024,
        maxBytesBeforeHello: Int = 4 * 1024,
        handshakeTimeoutMilliseconds: Int = 10_000,
        idleTimeoutMilliseconds: Int = 40_000,
        pingIntervalMilliseconds: Int = 15_000,
        mutationsPerSecond: Double = 200,
        mutationBurst: Double = 400,
        framesPerSecond: Double = 1_000,
        frameBurst: Double = 2_000,
        sessionQueueBytes: Int = 1 << 20,
        globalQueueBytes: Int = 512 << 20,
        slowConsumerAbortMilliseconds: Int = 5_000,
        engineInboxCapacity: Int = 16_384,
        overloadedRetryMilliseconds: Int = 250,
        backlogPageSize: Int = 512,
        concurrentSnapshotBuilds: Int = 2,
        fanoutCoalesceMilliseconds: Int = 20
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxConnectionsPerToken = maxConnectionsPerToken
        self.maxInboundMessageBytes = maxInboundMessageBytes
        self.maxBytesBeforeHello = maxBytesBeforeHello
        self.handshakeTimeoutMilliseconds = handshakeTimeoutMilliseconds
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        self.pingIntervalMilliseconds = pingIntervalMilliseconds
        self.mutationsPerSecond = mutationsPerSecond
        self.mutationBurst = mutationBurst
        self.framesPerSecond = framesPerSecond
        self.frameBurst = frameBurst
        self.sessionQueueBytes = sessionQueueBytes
        self.globalQueueBytes = globalQueueBytes
        self.slowConsumerAbortMilliseconds = slowConsumerAbortMilliseconds
        self.engineInboxCapacity = engineInboxCapacity
        self.overloadedRetryMilliseconds = overloadedRetryMilliseconds
        self.backlogPageSize = backlogPageSize
        self.concurrentSnapshotBuilds = concurrentSnapshotBuilds
        self.fanoutCoalesceMilliseconds = fanoutCoalesceMilliseconds
    }
}
