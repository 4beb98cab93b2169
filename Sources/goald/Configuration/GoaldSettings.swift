import Configuration
import GoalServer
import GoalStore

/// Every configuration key goald reads, in the order `check-config` and `Config/goald.yaml` show them. The
/// defaults are `ServerConfiguration`'s, `ServerLimits`' and `RetentionPolicy`'s own, so there is one source.
enum GoaldSettings {
    static let stateDirKey = "stateDir"

    /// Every key.
    static let all: [Setting] =
        listener + store + tls + metrics + limits + retention + clientRecords + http + websocket + process + logging

    /// The key named `key`, if any.
    static func setting(_ key: String) -> Setting? { byKey[key] }

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    private static let defaults = ServerConfiguration(stateDirectory: "")
    private static let limitDefaults = ServerLimits()
    private static let retentionDefaults = RetentionPolicy.default
    private static let clientRecordDefaults = ClientRecordPolicy.default

    private static let listener: [Setting] = [
        Setting(
            key: "host",
            kind: .string,
            defaultValue: .string(defaults.host),
            help: "Address the WebSocket listener binds (127.0.0.1, ::, 0.0.0.0, …).",
            flag: "--host"
        ),
        Setting(
            key: "port",
            kind: .integer,
            defaultValue: .int(defaults.port),
            help: "TCP port of the wss:// listener (0 picks a free port).",
            flag: "--port"
        ),
        Setting(
            key: stateDirKey,
            kind: .string,
            defaultValue: nil,
            help: "State directory: goald.sqlite, tls/, admin-token, goald.lock (made with mode 0700).",
            flag: "--state-dir"
        ),
        Setting(
            key: "publicHosts",
            kind: .stringList,
            defaultValue: .stringArray(defaults.publicHosts),
            help: "Extra DNS names or IP addresses the generated server certificate covers (besides localhost, "
                + "127.0.0.1, ::1).",
            flag: "--public-host"
        ),
    ]

    private static let store: [Setting] = [
        Setting(
            key: "store.url",
            kind: .string,
            defaultValue: nil,
            help: "PostgreSQL store: postgres://USER@HOST[:PORT]/DATABASE[?sslmode=require]. Unset: SQLite in the "
                + "state directory. The password comes from GOALD_STORE_PASSWORD or store.passwordFile, never a flag.",
            flag: "--store"
        ),
        Setting(
            key: "store.passwordFile",
            kind: .string,
            defaultValue: nil,
            help: "A file holding the PostgreSQL password (its first line)."
        ),
        Setting(
            key: "store.password",
            kind: .string,
            defaultValue: nil,
            help: "The PostgreSQL password; secret: never printed. Environment or file only.",
            flag: nil,
            isSecret: true
        ),
    ]

    private static let tls: [Setting] = [
        Setting(
            key: "tls.certificateFile",
            kind: .string,
            defaultValue: nil,
            help: "PEM certificate chain (server first). Unset: a development CA is generated under <state>/tls.",
            flag: "--tls-certificate"
        ),
        Setting(
            key: "tls.privateKeyFile",
            kind: .string,
            defaultValue: nil,
            help: "PEM private key of that certificate; required with tls.certificateFile.",
            flag: "--tls-private-key"
        ),
        Setting(
            key: "tls.certificatePEM",
            kind: .string,
            defaultValue: nil,
            help: "The certificate chain as inline PEM text (for secret stores); excludes tls.certificateFile.",
            flag: nil
        ),
        Setting(
            key: "tls.privateKeyPEM",
            kind: .string,
            defaultValue: nil,
            help: "The private key as inline PEM text; secret: never printed. Environment or file only.",
            flag: nil,
            isSecret: true
        ),
    ]

    private static let metrics: [Setting] = [
        Setting(
            key: "metrics.enabled",
            kind: .boolean,
            defaultValue: .bool(false),
            help: "Serve /metrics and /healthz on a separate plaintext loopback listener. Off: /metrics is on the "
                + "main listener for admin tokens only.",
            flag: "--metrics"
        ),
        Setting(
            key: "metrics.host",
            kind: .string,
            defaultValue: .string(ServerConfiguration.MetricsListener().host),
            help: "Address of the metrics listener; must be a loopback address.",
            flag: "--metrics-host"
        ),
        Setting(
            key: "metrics.port",
            kind: .integer,
            defaultValue: .int(ServerConfiguration.MetricsListener().port),
            help: "Port of the metrics listener.",
            flag: "--metrics-port"
        ),
    ]

    private static func limit(_ name: String, _ value: Int, _ help: String) -> Setting {
        Setting(key: "limits." + name, kind: .integer, defaultValue: .int(value), help: help)
    }

    private static func limit(_ name: String, _ value: Double, _ help: String) -> Setting {
        Setting(key: "limits." + name, kind: .number, defaultValue: .double(value), help: help)
    }

    private static let limits: [Setting] = {
        let l = limitDefaults
        return [
            limit("maxConnections", l.maxConnections ?? 0, "Total connections; 0 = the open-file limit − 256."),
            limit("maxConnectionsPerIP", l.maxConnectionsPerIP, "Concurrent connections from one IP address."),
            limit("maxConnectionsPerToken", l.maxConnectionsPerToken, "Concurrent sessions of one token."),
            limit("maxInboundMessageBytes", l.maxInboundMessageBytes, "Largest inbound message (after fragments)."),
            limit("maxBytesBeforeHello", l.maxBytesBeforeHello, "Bytes accepted before hello."),
            limit(
                "handshakeTimeoutMilliseconds",
                l.handshakeTimeoutMilliseconds,
                "TLS + upgrade + hello must finish within this."
            ),
            limit("idleTimeoutMilliseconds", l.idleTimeoutMilliseconds, "A peer silent this long is dead."),
            limit("pingIntervalMilliseconds", l.pingIntervalMilliseconds, "The server pings each session this often."),
            limit("mutationsPerSecond", l.mutationsPerSecond, "Mutation rate per session (token bucket refill)."),
            limit("mutationBurst", l.mutationBurst, "Mutation bucket size."),
            limit("framesPerSecond", l.framesPerSecond, "Inbound frames per session per second (pings count)."),
            limit("frameBurst", l.frameBurst, "Frame bucket size; past it: close 4029."),
            limit("sessionQueueBytes", l.sessionQueueBytes, "A session's outbound queue bound; past it: 4008."),
            limit(
                "globalQueueBytes",
                l.globalQueueBytes,
                "All sessions' queued bytes; past it the largest is evicted."
            ),
            limit(
                "slowConsumerAbortMilliseconds",
                l.slowConsumerAbortMilliseconds,
                "After 4008, abort a connection not closed within this."
            ),
            limit(
                "engineInboxCapacity",
                l.engineInboxCapacity,
                "Mutations waiting to be decided or to be durable; past it: overloaded."
            ),
            limit(
                "overloadedRetryMilliseconds",
                l.overloadedRetryMilliseconds,
                "How long a session told overloaded stops reading."
            ),
            limit("backlogPageSize", l.backlogPageSize, "Changesets read from the log per backlog page."),
            limit("concurrentSnapshotBuilds", l.concurrentSnapshotBuilds, "Snapshots built at the same time, at most."),
            limit(
                "fanoutCoalesceMilliseconds",
                l.fanoutCoalesceMilliseconds,
                "Longest pause after a fan-out slice under load (changesets share writes); 0 = none."
            ),
        ]
    }()

    private static let retention: [Setting] = [
        Setting(
            key: "retention.maximumChangesets",
            kind: .integer,
            defaultValue: .int(Int(retentionDefaults.maximumChangesets)),
            help: "The log keeps at most this many changesets."
        ),
        Setting(
            key: "retention.maximumAgeSeconds",
            kind: .integer,
            defaultValue: .int(Int(retentionDefaults.maximumAge.components.seconds)),
            help: "…and none older than this (whichever keeps less). Older resumes get a snapshot."
        ),
        Setting(
            key: "retention.chunkSize",
            kind: .integer,
            defaultValue: .int(retentionDefaults.chunkSize),
            help: "Changesets pruned per transaction."
        ),
    ]

    private static let clientRecords: [Setting] = [
        Setting(
            key: "clientRecords.maximumAgeSeconds",
            kind: .integer,
            defaultValue: .int(Int(clientRecordDefaults.maximumAge.components.seconds)),
            help: "An exactly-once record unused this long is forgotten (at least 604800 s: clients rely on 7 days)."
        ),
        Setting(
            key: "clientRecords.maximumCount",
            kind: .integer,
            defaultValue: .int(clientRecordDefaults.maximumCount),
            help: "The most client instances with a record; past it new instances are answered overloaded."
        ),
    ]

    private static let http: [Setting] = [
        Setting(
            key: "http.anonymousRole",
            kind: .string,
            defaultValue: .string("none"),
            help: "The role of an /api/v1 request without a token: none (401), viewer or editor. Anyone who reaches "
                + "the port gets it: only on a trusted network (docs/HTTP.md)."
        )
    ]

    private static let websocket: [Setting] = [
        Setting(
            key: "websocket.permessageDeflate",
            kind: .boolean,
            defaultValue: .bool(true),
            help: "Accept RFC 7692 permessage-deflate on /v1/stream: each changeset is compressed once and the same "
                + "bytes go to every session that asked for it (docs/PROTOCOL.md §1)."
        )
    ]

    private static let process: [Setting] = [
        Setting(
            key: "nodeId",
            kind: .string,
            defaultValue: nil,
            help: "This node's name in /healthz, welcome, presence, metrics and logs; unique among the goald on one "
                + "store (a second node with a live node's id is refused). Default: the id kept in the state "
                + "directory's node-id file, made on first start as <host name>-<6 hex digits>."
        ),
        Setting(
            key: "maintenanceIntervalSeconds",
            kind: .integer,
            defaultValue: .int(defaults.maintenanceIntervalSeconds),
            help: "How often retention pruning, forgetting idle client records and the WAL checkpoint run."
        ),
        Setting(
            key: "leagues.idleSeconds",
            kind: .integer,
            defaultValue: .int(Int(defaults.leagueIdleSeconds)),
            help: "How long a league other than the default one stays loaded (engine, fan-out, open store) without a "
                + "session or an HTTP request; it is loaded again on its next use."
        ),
        Setting(
            key: "eventLoopThreads",
            kind: .integer,
            defaultValue: .int(defaults.eventLoopThreads),
            help: "Event-loop threads; 0 = one per core."
        ),
    ]

    private static let logging: [Setting] = [
        Setting(
            key: "log.level",
            kind: .string,
            defaultValue: .string("info"),
            help: "trace, debug, info, notice, warning, error or critical.",
            flag: "--log-level"
        ),
        Setting(
            key: "log.format",
            kind: .string,
            defaultValue: .string("text"),
            help: "text (human readable) or json (one JSON object per line), on standard error.",
            flag: "--log-format"
        ),
    ]
}
