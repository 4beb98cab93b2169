import CoreMetrics
import GoalModel
import GoalStore
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What every session shares: the engine, the hub, the store (for backlog reads and token look-ups), the limits,
/// the registries and the metrics. One per daemon.
///
/// Threading: every member is `Sendable` and safe from any event loop; blocking store calls go through
/// `threadPool`. Lifetime: created by `GoalDaemon` before the listener binds, alive until the daemon returns.
final class ServerCore: Sendable {
    /// Every session channel's write-buffer watermarks: NIO reports the channel unwritable above `high` bytes.
    static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)

    let engine: Engine
    let hub: Hub
    let storage: any LeagueStorage
    let tokens: TokenDirectory
    let connections: ConnectionLimiter
    let instances: InstanceRegistry
    let snapshots: SnapshotCache
    let metrics: ServerMetrics
    let limits: ServerLimits
    let epoch: String
    let threadPool: NIOThreadPool
    let logger: Logger
    /// The warning for connections refused at the total cap, at most once per 10 s.
    let refusalLog = RefusalLog()
    private let nextSessionID = Atomic<UInt64>(0)
    /// Bytes queued in every session's own outbound queue together (the global cap).
    let queuedBytes = Atomic<Int>(0)
    /// This node's name (`ServerConfiguration.nodeID`).
    let nodeID: String
    /// The store's head when `Maintenance` last read it (every 2 s); another node may have moved it.
    let storeHead: Atomic<UInt64>
    /// Who is present, on this node and (with a presence bus) on the others.
    let presence: PresenceRegistry
    /// What the HTTP API (`RESTAPI/`) shares across requests: the anonymous role and mutation ids.
    let rest: RESTContext

    init(
        engine: Engine,
        hub: Hub,
        storage: any LeagueStorage,
        tokens: TokenDirectory,
        connections: ConnectionLimiter,
        instances: InstanceRegistry,
        snapshots: SnapshotCache,
        metrics: ServerMetrics,
        limits: ServerLimits,
        epoch: String,
        nodeID: String,
        storeHead: Revision,
        threadPool: NIOThreadPool,
        logger: Logger,
        presenceBus: (any PresenceBus)? = nil,
        httpAnonymousRole: Role? = nil
    ) {
        self.engine = engine
        self.hub = hub
        self.storage = storage
        self.tokens = tokens
        self.connections = connections
        self.instances = instances
        self.snapshots = snapshots
        self.metrics = metrics
        self.limits = limits
        self.epoch = epoch
        self.nodeID = nodeID
        self.storeHead = Atomic(storeHead)
        self.threadPool = threadPool
        self.logger = logger
        self.presence = PresenceRegistry(
            node: nodeID,
            hub: hub,
            configuration: limits.presence,
            bus: presenceBus,
            logger: logger
        )
        self.rest = RESTContext(anonymousRole: httpAnonymousRole)
    }

    /// A fresh session id.
    func makeSessionID() -> SessionID {
        nextSessionID.add(1, ordering: .relaxed).newValue
    }

    /// Adds (or, negative, removes) bytes from the global queued total.
    /// - Returns: the new total.
    @discardableResult
    func adjustQueuedBytes(by delta: Int) -> Int {
        let total = queuedBytes.add(delta, ordering: .relaxed).newValue
        metrics.queuedBytes.set(total)
        return total
    }
}
