import GoalWire

/// Everything one run measured and concluded; printed as text or, with `--json`, as one JSON object (`document`:
/// the field names are the property names, keys sorted, a field that is nil left out).
///
/// Value type, `Sendable`.
struct LoadReport: Sendable, Equatable {
    struct Setup: Sendable, Equatable {
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

    struct Connections: Sendable, Equatable {
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

    struct Commits: Sendable, Equatable {
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

    struct Deliveries: Sendable, Equatable {
        var total: Int
        var perSecond: Double
        var bytes: Int
        var bytesPerSecond: Double
    }

    /// Commit→delivery latency: from the writer's send to a subscriber's receipt, one monotonic clock.
    struct Latency: Sendable, Equatable {
        var samples: UInt64
        var p50Milliseconds: Double
        var p90Milliseconds: Double
        var p99Milliseconds: Double
        var p999Milliseconds: Double
        var maxMilliseconds: Double
    }

    /// With several nodes: the latencies of deliveries on the node the writer sent to, and on the other nodes (the
    /// commit crossed the store to reach them).
    struct LatencyByNode: Sendable, Equatable {
        var writersNode: Latency
        var otherNodes: Latency
    }

    struct CPU: Sendable, Equatable {
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

    struct Idle: Sendable, Equatable {
        var connections: Int
        var daemonRSSBeforeBytes: UInt64
        var daemonRSSAfterBytes: UInt64
        var bytesPerConnection: Double
    }

    struct Catchup: Sendable, Equatable {
        var changesets: UInt64
        var seconds: Double
        var changesetsPerSecond: Double
    }

    struct Convergence: Sendable, Equatable {
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
    struct Node: Sendable, Equatable {
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
    /// Per league, in order, when the run named leagues (`--leagues`); nil for the default league alone, whose
    /// proof is `convergence` (otherwise the total over these).
    var leagues: [League]? = nil
}

// The `--json` report, written by GoalWire's JSON writer (`JSONDocument`).
extension LoadReport {
    /// The whole report as one JSON object.
    var document: JSONDocument {
        var members: [String: JSONDocument] = [
            "setup": setup.document,
            "measuredSeconds": .number(measuredSeconds),
            "connections": connections.document,
            "commits": commits.document,
            "deliveries": deliveries.document,
            "latency": latency.document,
            "loadProcess": loadProcess.document,
            "convergence": convergence.document,
            "nodes": .array(nodes.map(\.document)),
        ]
        members["latencyByNode"] = latencyByNode?.document
        members["daemon"] = daemon?.document
        members["idle"] = idle?.document
        members["catchup"] = catchup?.document
        members["leagues"] = leagues.map { .array($0.map(\.document)) }
        return .sortedObject(members)
    }

    /// Counts by name (rejection codes, mutation kinds) as an object with sorted keys.
    fileprivate static func counts(_ counts: [String: Int]) -> JSONDocument {
        .sortedObject(counts.mapValues { .int($0) })
    }
}

extension LoadReport.Setup {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "scenario": .string(scenario), "url": .string(url), "subscribers": .int(subscribers),
            "writers": .int(writers), "rate": .number(rate), "arrivals": .string(arrivals), "window": .int(window),
            "durationSeconds": .number(durationSeconds), "mix": .string(mix),
            "sampledSubscribers": .int(sampledSubscribers), "threads": .int(threads),
            "protocolVersion": .int(protocolVersion), "deflate": .bool(deflate),
            "openFileLimit": .uint(openFileLimit), "loadAverage": .string(loadAverage),
        ])
    }
}

extension LoadReport.Connections {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "subscribersConnected": .int(subscribersConnected),
            "subscribersNeverConnected": .int(subscribersNeverConnected),
            "writersConnected": .int(writersConnected), "failedAttempts": .int(failedAttempts),
            "subscriberReconnects": .int(subscriberReconnects), "writerReconnects": .int(writerReconnects),
            "churnResumes": .int(churnResumes), "slowConsumerCloses": .int(slowConsumerCloses),
            "connectSeconds": .number(connectSeconds),
        ])
    }
}

extension LoadReport.Commits {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "sent": .int(sent), "accepted": .int(accepted), "acceptedPerSecond": .number(acceptedPerSecond),
            "noops": .int(noops), "rejections": LoadReport.counts(rejections), "rateLimited": .int(rateLimited),
            "overloaded": .int(overloaded), "unanswered": .int(unanswered),
            "sentByKind": LoadReport.counts(sentByKind),
        ])
    }
}

extension LoadReport.Deliveries {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "total": .int(total), "perSecond": .number(perSecond), "bytes": .int(bytes),
            "bytesPerSecond": .number(bytesPerSecond),
        ])
    }
}

extension LoadReport.Latency {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "samples": .uint(samples), "p50Milliseconds": .number(p50Milliseconds),
            "p90Milliseconds": .number(p90Milliseconds), "p99Milliseconds": .number(p99Milliseconds),
            "p999Milliseconds": .number(p999Milliseconds), "maxMilliseconds": .number(maxMilliseconds),
        ])
    }
}

extension LoadReport.LatencyByNode {
    fileprivate var document: JSONDocument {
        .sortedObject(["writersNode": writersNode.document, "otherNodes": otherNodes.document])
    }
}

extension LoadReport.CPU {
    fileprivate var document: JSONDocument {
        var members: [String: JSONDocument] = [
            "seconds": .number(seconds), "percentOfCore": .number(percentOfCore), "rssBytes": .uint(rssBytes),
        ]
        members["microsecondsPerDelivery"] = microsecondsPerDelivery.map(JSONDocument.number)
        return .sortedObject(members)
    }
}

extension LoadReport.Idle {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "connections": .int(connections), "daemonRSSBeforeBytes": .uint(daemonRSSBeforeBytes),
            "daemonRSSAfterBytes": .uint(daemonRSSAfterBytes), "bytesPerConnection": .number(bytesPerConnection),
        ])
    }
}

extension LoadReport.Catchup {
    fileprivate var document: JSONDocument {
        .sortedObject([
            "changesets": .uint(changesets), "seconds": .number(seconds),
            "changesetsPerSecond": .number(changesetsPerSecond),
        ])
    }
}

extension LoadReport.Convergence {
    var document: JSONDocument {
        .sortedObject([
            "head": .uint(head), "headDigest": .string(headDigest), "subscribersChecked": .int(subscribersChecked),
            "subscribersAtHead": .int(subscribersAtHead), "digestMismatches": .int(digestMismatches),
            "streamProblems": .int(streamProblems), "sampledReplicasChecked": .int(sampledReplicasChecked),
            "replicaMismatches": .int(replicaMismatches), "converged": .bool(converged),
            "problems": .array(problems.map(JSONDocument.string)),
        ])
    }
}

extension LoadReport.Node {
    fileprivate var document: JSONDocument {
        var members: [String: JSONDocument] = [
            "url": .string(url), "subscribers": .int(subscribers), "writers": .int(writers),
            "subscribersAtHead": .int(subscribersAtHead),
        ]
        members["head"] = head.map(JSONDocument.uint)
        members["headDigest"] = headDigest.map(JSONDocument.string)
        return .sortedObject(members)
    }
}
