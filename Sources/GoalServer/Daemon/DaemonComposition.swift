import GoalModel
import GoalStore
import Logging
import NIOCore
import NIOPosix
import Prometheus
import ServiceLifecycle

/// The composition root: every long-lived part of a running daemon, built once at start-up (after the league is
/// recovered and the node id resolved) from the configuration, the store and the `DaemonParts`. Each component gets
/// only the collaborators it uses; nothing is passed around as a whole:
///
/// - `Hub` (the fan-out): the event loops, the recovered head, the coalescing pause, the slice gate, the
///   compressor, the metrics.
/// - `Engine`: the recovered league, the writer over the store, the hub, the clock, the metrics, the daemon's stop.
///   It follows other nodes' commits through the store's head notifications (`followsOtherNodes`).
/// - `ServerPipeline` (every accepted connection): the connection limiter, the refusal log, the metrics, the limits,
///   whether permessage-deflate is offered, `HTTPRequestHandler.Collaborators` (the health report, metrics, tokens,
///   thread pool, limits and `RESTAPI.Collaborators`: engine, tokens, thread pool, `RESTContext`) and the session's.
/// - The services run in the daemon's own `ServiceGroup`: `Maintenance` (tokens, hub, store, engine, thread pool,
///   metrics, observed store head) and `PresenceService` (the presence registry).
/// - Every session (`SessionCollaborators`): the engine, hub, store, tokens, connection limiter, client instances,
///   snapshot cache, presence registry, metrics, limits, epoch, node id, thread pool, session ids and the global
///   queued-bytes total.
///
/// Threading: `Sendable`, immutable. Lifetime: made by `GoalDaemon.run()`, alive until it returns.
struct DaemonComposition: Sendable {
    let engine: Engine
    let hub: Hub
    let tokens: TokenDirectory
    let connections: ConnectionLimiter
    let pipeline: ServerPipeline
    let maintenance: Maintenance
    let presence: PresenceService

    init(
        configuration: ServerConfiguration,
        storage: any LeagueStorage,
        recovered: DurableLeague,
        nodeID: String,
        group: MultiThreadedEventLoopGroup,
        threadPool: NIOThreadPool,
        registry: PrometheusCollectorRegistry,
        parts: DaemonParts,
        compression: ChangesetCompression?,
        logger: Logger,
        onFatalError: @escaping @Sendable (StorageError) -> Void
    ) {
        let limits = configuration.limits
        let metrics = ServerMetrics(registry: registry)
        var loops: [any EventLoop] = []
        for loop in group.makeIterator() { loops.append(loop) }
        let hub = Hub(
            eventLoops: loops,
            head: recovered.head,
            headDigest: recovered.headDigest,
            coalescePause: .milliseconds(Int64(limits.fanoutCoalesceMilliseconds)),
            gate: parts.sliceGate,
            compression: compression,
            metrics: metrics
        )
        let engine = Engine(
            recovered: recovered,
            capacity: limits.engineInboxCapacity,
            clientRecordPolicy: configuration.clientRecords,
            writer: BatchWriter(storage: storage),
            hub: hub,
            metrics: metrics,
            logger: logger,
            now: parts.clock,
            onFatalError: onFatalError
        )
        parts.receiveClientRecordSweeper(engine)
        // Other nodes' commits: their notifications (with the batch when it fits); `Maintenance` also reads the head
        // every 2 s.
        if parts.followsOtherNodes {
            (storage as? any SharedLeagueStorage)?.watchHead { [weak engine] notice in engine?.follow(notice) }
        }
        let tokens = TokenDirectory(storage: storage)
        let connections = ConnectionLimiter(
            maxTotal: limits.maxConnections ?? GoalDaemon.defaultMaxConnections(),
            maxPerIP: limits.maxConnectionsPerIP,
            maxPerToken: limits.maxConnectionsPerToken
        )
        let storeHead = ObservedStoreHead(recovered.head)
        let sessionIDs = SessionIDSource()
        let queuedBytes = QueuedBytesTotal(meter: metrics.queuedBytes)
        let session = SessionCollaborators(
            engine: engine,
            hub: hub,
            storage: storage,
            tokens: tokens,
            connections: connections,
            instances: InstanceRegistry(),
            snapshots: SnapshotCache(
                threadPool: threadPool,
                metrics: metrics,
                maxConcurrentBuilds: limits.concurrentSnapshotBuilds
            ),
            presence: PresenceRegistry(
                node: nodeID,
                hub: hub,
                configuration: limits.presence,
                bus: parts.presenceBus,
                logger: logger
            ),
            metrics: metrics,
            limits: limits,
            epoch: recovered.epoch,
            nodeID: nodeID,
            threadPool: threadPool,
            logger: logger,
            makeSessionID: { sessionIDs.next() },
            adjustQueuedBytes: { queuedBytes.adjust(by: $0) }
        )
        let rest = RESTAPI.Collaborators(
            engine: engine,
            tokens: tokens,
            threadPool: threadPool,
            context: RESTContext(anonymousRole: configuration.httpAnonymousRole),
            overloadedRetryMilliseconds: limits.overloadedRetryMilliseconds
        )
        let http = HTTPRequestHandler.Collaborators(
            health: HealthReport(
                engine: engine,
                storeHead: storeHead,
                connections: connections,
                nodeID: nodeID,
                epoch: recovered.epoch,
                storeKind: storage.kind
            ),
            metrics: metrics,
            tokens: tokens,
            threadPool: threadPool,
            limits: limits,
            rest: rest
        )
        self.engine = engine
        self.hub = hub
        self.tokens = tokens
        self.connections = connections
        self.pipeline = ServerPipeline(
            connections: connections,
            refusalLog: RefusalLog(),
            metrics: metrics,
            limits: limits,
            permessageDeflate: compression != nil,
            http: http,
            session: session,
            logger: logger
        )
        self.maintenance = Maintenance(
            tokens: tokens,
            hub: hub,
            storage: storage,
            engine: engine,
            threadPool: threadPool,
            metrics: metrics,
            storeHead: storeHead,
            interval: configuration.maintenanceIntervalSeconds,
            followsOtherNodes: parts.followsOtherNodes,
            logger: logger
        )
        self.presence = PresenceService(registry: session.presence)
    }

    /// The daemon's own group of long-lived services, in start order (graceful shutdown runs in reverse: presence
    /// says goodbye first). Runs without signal handlers: the daemon triggers its shutdown (`GoalDaemon.serve()`).
    /// Either service returning early (presence without a bus) leaves the other running.
    func serviceGroup(logger: Logger) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: maintenance, successTerminationBehavior: .ignore),
                    .init(service: presence, successTerminationBehavior: .ignore),
                ],
                logger: logger
            )
        )
    }
}
