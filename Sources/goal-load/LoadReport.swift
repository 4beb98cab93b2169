/// Everything one run measured and concluded; printed as text or, with `--json`, as one JSON object.
///
/// Value type, `Sendable`, `Codable` (the JSON field names are the property names).
struct LoadReport: Codable, Sendable, Equatable {
    struct Setup: Codable, Sendable, Equatable {
        var scenario: String
        /// The URLs loaded, comma-separated (one per node).
        var url: String
        var subscribers: Int
        var writers: Int
        /// Target commits/s; 0 = flat out.
        var rate: Double
        /// How paced writers spread their mutations (`Arrivals`): "even" or "poisson".
        var arrivals: String = Arrivals.even.rawValue
        var window: Int
        var durationSeconds: Double
        var mix: String
        var sampledSubscribers: Int
        var threads: Int
        /// The protocol version subscribers asked for (`--protocol`), and whether they offered permessage-deflate.
        var protocolVersion: Int
        var deflate: Bool
        var openFileLimit: UInt64
        /// /proc/loadavg when the run ended (other work on the machine skews every figure).
        var loadAverage: String
    }

    struct Connections: Codable, Sendable, Equatable {
        var subscribersConnected: Int
        var subscribersNeverConnected: Int
        var writersConnected: Int
        var failedAttempts: Int
        var subscriberReconnects: Int
        var writerReconnects: Int
        /// Subscribers closed and resumed on purpose (churn).
        var churnResumes: Int
        /// Reconnect-class errors the server sent subscribers (slow consumer 4008, overloaded, shutting down).
        var slowConsumerCloses: Int
        var connectSeconds: Double
    }

    struct Commits: Codable, Sendable, Equatable {
        var sent: Int
        var accepted: Int
        var acceptedPerSecond: Double
        var noops: Int
        var rejections: [String: Int]
        var rateLimited: Int
        var overloaded: Int
        var unanswered: Int
        var sentByKind: [String: Int]
    }

    struct Deliveries: Codable, Sendable, Equatable {
        var total: Int
        var perSecond: Double
        var bytes: Int
        var bytesPerSecond: Double
    }

    /// Commit→delivery latency: from the writer's send to a subscriber's receipt, one monotonic clock.
    struct Latency: Codable, Sendable, Equatable {
        var samples: UInt64
        var p50Milliseconds: Double
        var p90Milliseconds: Double
        var p99Milliseconds: Double
        var p999Milliseconds: Double
        var maxMilliseconds: Double
    }

    /// With several nodes: the latencies of deliveries on the node the writer sent to, and on the other nodes (the
    /// commit crossed the store to reach them).
    struct LatencyByNode: Codable, Sendable, Equatable {
        var writersNode: Latency
        var otherNodes: Latency
    }

    struct CPU: Codable, Sendable, Equatable {
        var seconds: Double
        /// Share of one core over the measured phase, in percent.
        var percentOfCore: Double
        var rssBytes: UInt64
        /// CPU microseconds per delivery (daemon only).
        var microsecondsPerDelivery: Double?

        /// The share of a core above which goal-load itself may be what limits a run (docs/BENCHMARKS.md).
        static let loadGeneratorLimitPercent = 90.0

        /// True when this process used the load generator's limit or more: its figures are bounded by it too.
        var isAtLoadGeneratorLimit: Bool { percentOfCore >= Self.loadGeneratorLimitPercent }
    }

    struct Idle: Codable, Sendable, Equatable {
        var connections: Int
        var daemonRSSBeforeBytes: UInt64
        var daemonRSSAfterBytes: UInt64
        var bytesPerConnection: Double
    }

    struct Catchup: Codable, Sendable, Equatable {
        var changesets: UInt64
        var seconds: Double
        var changesetsPerSecond: Double
    }

    struct Convergence: Codable, Sendable, Equatable {
        var head: UInt64
        var headDigest: String
        var subscribersChecked: Int
        var subscribersAtHead: Int
        var digestMismatches: Int
        var streamProblems: Int
        var sampledReplicasChecked: Int
        var replicaMismatches: Int
        var converged: Bool
        /// The first few problems, for a person.
        var problems: [String]
    }

    /// One node (URL) of the run: where connections went and what it held at the end.
    struct Node: Codable, Sendable, Equatable {
        var url: String
        /// Subscribers that ended the run on this node (they start round robin and move on if a node is lost).
        var subscribers: Int
        /// Writers that ended the run on this node (they start round robin and move on if a node is lost).
        var writers: Int
        /// Of those subscribers, how many hold this node's head and digest.
        var subscribersAtHead: Int
        /// The node's head and its digest as read at the end (nil when it could not be read).
        var head: UInt64?
        var headDigest: String?
    }

    var setup: Setup
    var measuredSeconds: Double
    var connections: Connections
    var commits: Commits
    var deliveries: Deliveries
    var latency: Latency
    var latencyByNode: LatencyByNode?
    var loadProcess: CPU
    var daemon: CPU?
    var idle: Idle?
    var catchup: Catchup?
    var convergence: Convergence
    /// Per node, in the order of the URLs.
    var nodes: [Node]
}
