import CoreMetrics
import GoalModel
import Prometheus

/// Every metric the daemon keeps, created once at start through swift-metrics with a Prometheus factory bound to
/// the daemon's own registry (so `/metrics` renders it and tests read it without bootstrapping anything global).
///
/// Dimensions are bounded: rejection codes and close codes are fixed sets. Threading: the swift-metrics handlers
/// are thread-safe; `Sendable`. Lifetime: the daemon's.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let connections: CoreMetrics.Meter
    let sessions: CoreMetrics.Meter
    let commits: CoreMetrics.Counter
    let noops: CoreMetrics.Counter
    let duplicates: CoreMetrics.Counter
    private let rejectionsByCode: [MutationRejection.Code: CoreMetrics.Counter]
    let fanoutFrames: CoreMetrics.Counter
    let fanoutBytes: CoreMetrics.Counter
    /// Durable batches per fan-out round (more than one when the shard coalesced them).
    let fanoutRoundBatches: CoreMetrics.Recorder
    /// How long one loop took to write one round to all its sessions.
    let fanoutRoundDuration: CoreMetrics.Timer
    /// From a round's oldest batch becoming durable to the round's last session written: the server's share of
    /// commit→delivery latency after the commit.
    let fanoutDelay: CoreMetrics.Timer
    /// Live sessions whose loop's window no longer reached back to them, caught up from the log instead (0 unless
    /// the window's floor rule is broken).
    let fanoutRejoins: CoreMetrics.Counter
    let queuedBytes: CoreMetrics.Meter
    let slowConsumerCloses: CoreMetrics.Counter
    let batchCommits: CoreMetrics.Recorder
    let commitLatency: CoreMetrics.Timer
    let snapshotBuilds: CoreMetrics.Counter
    let inboxDepth: CoreMetrics.Recorder
    let rateLimited: CoreMetrics.Counter
    /// Presence announcements past their bucket, coalesced into a later one.
    let presenceCoalesced: CoreMetrics.Counter
    let overloaded: CoreMetrics.Counter
    /// Client instances with an exactly-once record (the engine's table).
    let clientRecords: CoreMetrics.Meter
    /// Exactly-once records forgotten after their retention age.
    let clientRecordsForgotten: CoreMetrics.Counter
    /// 1 while the store takes writes, 0 while it is unavailable (the engine retries and answers `overloaded`).
    let storeAvailable: CoreMetrics.Meter
    /// How often the store became unavailable.
    let storeOutages: CoreMetrics.Counter
    /// The store's head as last read (every 2 s), and how many revisions this node's durable head trails it.
    let storeHead: CoreMetrics.Meter
    let trailingRevisions: CoreMetrics.Meter
    /// Commits other nodes of a shared store made, published here; batches decided again because one wrote first.
    let foreignCommits: CoreMetrics.Counter
    let rebasedBatches: CoreMetrics.Counter
    /// Shared stores: other nodes' batches taken from their commit notification, and reads of what they wrote.
    let notifiedBatches: CoreMetrics.Counter
    let catchUpReads: CoreMetrics.Counter
    private let closesByCode: [UInt16: CoreMetrics.Counter]
    private let otherCloses: CoreMetrics.Counter

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["goald_batch_commits"] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096]
        factory.valueHistogramBuckets["goald_engine_inbox_depth"] = [0, 1, 10, 100, 1_000, 10_000, 100_000]
        factory.durationHistogramBuckets["goald_commit_latency_seconds"] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .seconds(1),
        ]
        factory.durationHistogramBuckets["goald_fanout_delay_seconds"] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(15),
            .milliseconds(20), .milliseconds(25), .milliseconds(30), .milliseconds(40), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        connections = CoreMetrics.Meter(label: "goald_connections", factory: factory)
        sessions = CoreMetrics.Meter(label: "goald_sessions", factory: factory)
        commits = CoreMetrics.Counter(label: "goald_commits_total", factory: factory)
        noops = CoreMetrics.Counter(label: "goald_noops_total", factory: factory)
        duplicates = CoreMetrics.Counter(label: "goald_duplicates_total", factory: factory)
        var rejections: [MutationRejection.Code: CoreMetrics.Counter] = [:]
        for code in MutationRejection.Code.allCases {
            rejections[code] = CoreMetrics.Counter(
                label: "goald_rejections_total",
                dimensions: [("code", code.rawValue)],
                factory: factory
            )
        }
        rejectionsByCode = rejections
        fanoutFrames = CoreMetrics.Counter(label: "goald_fanout_frames_total", factory: factory)
        fanoutBytes = CoreMetrics.Counter(label: "goald_fanout_bytes_total", factory: factory)
        fanoutRoundBatches = CoreMetrics.Recorder(label: "goald_fanout_round_batches", factory: factory)
        fanoutRoundDuration = CoreMetrics.Timer(label: "goald_fanout_round_seconds", factory: factory)
        fanoutDelay = CoreMetrics.Timer(label: "goald_fanout_delay_seconds", factory: factory)
        fanoutRejoins = CoreMetrics.Counter(label: "goald_fanout_rejoins_total", factory: factory)
        queuedBytes = CoreMetrics.Meter(label: "goald_session_queued_bytes", factory: factory)
        slowConsumerCloses = CoreMetrics.Counter(label: "goald_slow_consumer_closes_total", factory: factory)
        batchCommits = CoreMetrics.Recorder(label: "goald_batch_commits", factory: factory)
        commitLatency = CoreMetrics.Timer(label: "goald_commit_latency_seconds", factory: factory)
        snapshotBuilds = CoreMetrics.Counter(label: "goald_snapshot_builds_total", factory: factory)
        inboxDepth = CoreMetrics.Recorder(label: "goald_engine_inbox_depth", factory: factory)
        rateLimited = CoreMetrics.Counter(label: "goald_rate_limited_total", factory: factory)
        presenceCoalesced = CoreMetrics.Counter(label: "goald_presence_coalesced_total", factory: factory)
        overloaded = CoreMetrics.Counter(label: "goald_overloaded_total", factory: factory)
        clientRecords = CoreMetrics.Meter(label: "goald_client_records", factory: factory)
        clientRecordsForgotten = CoreMetrics.Counter(label: "goald_client_records_forgotten_total", factory: factory)
        storeAvailable = CoreMetrics.Meter(label: "goald_store_available", factory: factory)
        storeAvailable.set(1)
        storeOutages = CoreMetrics.Counter(label: "goald_store_unavailable_total", factory: factory)
        storeHead = CoreMetrics.Meter(label: "goald_store_head", factory: factory)
        trailingRevisions = CoreMetrics.Meter(label: "goald_node_trailing_revisions", factory: factory)
        foreignCommits = CoreMetrics.Counter(label: "goald_foreign_commits_total", factory: factory)
        rebasedBatches = CoreMetrics.Counter(label: "goald_rebased_batches_total", factory: factory)
        notifiedBatches = CoreMetrics.Counter(label: "goald_notified_batches_total", factory: factory)
        catchUpReads = CoreMetrics.Counter(label: "goald_catch_up_reads_total", factory: factory)
        var closes: [UInt16: CoreMetrics.Counter] = [:]
        for code in [1000, 1001, 4000, 4001, 4002, 4008, 4010, 4011, 4012, 4029, 4400, 4401, 4403, 4409, 4413, 4426] {
            closes[UInt16(code)] = CoreMetrics.Counter(
                label: "goald_closes_total",
                dimensions: [("code", String(code))],
                factory: factory
            )
        }
        closesByCode = closes
        otherCloses = CoreMetrics.Counter(
            label: "goald_closes_total",
            dimensions: [("code", "other")],
            factory: factory
        )
    }

    /// Counts one engine decision by kind.
    func recordDecision(_ decision: EngineDecision) {
        switch decision {
        case .commit: commits.increment()
        case .noop: noops.increment()
        case .duplicate: duplicates.increment()
        case .rejected(let rejection): rejectionsByCode[rejection.code]?.increment()
        }
    }

    /// Counts an `unauthorized` refusal decided before the engine.
    func recordRejection(_ code: MutationRejection.Code) {
        rejectionsByCode[code]?.increment()
    }

    /// Counts a close the server sent.
    func recordClose(code: UInt16) {
        (closesByCode[code] ?? otherCloses).increment()
    }

    /// The Prometheus text exposition of every metric.
    func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}
