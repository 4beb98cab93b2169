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
/// - `LeagueHost` (every league): the default league's `LeagueRuntime` (built here by `LeagueRuntime.Factory`: its
///   `Hub`, `Engine` with the daemon's stop as its fatal error, snapshot cache, presence), the home store's league
///   catalog, and the factory for the leagues it loads on first use.
/// - `ServerPipeline` (every accepted connection): the connection limiter, the refusal log, the metrics, the limits,
///   whether permessage-deflate is offered, `HTTPRequestHandler.Collaborators` (the health report, metrics, tokens,
///   thread pool, limits and `RESTAPI.Collaborators`: the leagues, tokens, thread pool, `RESTContext`, the clock) and
///   the session's.
/// - The services run in the daemon's own `ServiceGroup`: `Maintenance` (tokens, the leagues, thread pool, metrics)
///   and `PresenceService` (the default league's presence registry; other leagues' run while they are loaded).
/// - Every session (`SessionCollaborators`): the leagues, tokens, connection limiter, metrics, limits, node id,
///   thread pool, session ids and the global queued-bytes total.
///
/// Threading: `Sendable`, immutable. Lifetime: made by `GoalDaemon.run()`, alive until it returns.
struct DaemonComposition: Sendable {
    let leagues: LeagueHost
    let tokens: TokenDirectory
    let connections: ConnectionLimiter
    let pipeline: ServerPipeline
    let maintenance: Maintenance
    let presence: PresenceService

    /// The default league's engine.
    var engine: Engine { leagues.defaultLeague.engine }
    /// The default league's hub.
    var hub: Hub { leagues.defaultLeague.hub }

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
        let factory = LeagueRuntime.Factory(
            configuration: configuration,
            nodeID: nodeID,
            loops: loops,
            threadPool: threadPool,
            metrics: metrics,
            parts: parts,
            compression: compression,
            logger: logger
        )
        let defaultLeague = factory.make(.default, storage: storage, recovered: recovered, onFatalError: onFatalError)
        let leagues = LeagueHost(
            defaultLeague: defaultLeague,
            catalog: storage as? any LeagueCatalog,
            factory: factory,
            idleSeconds: configuration.leagueIdleSeconds,
            logger: logger
        )
        let tokens = TokenDirectory(storage: storage)
        let connections = ConnectionLimiter(
            maxTotal: limits.maxConnections ?? GoalDaemon.defaultMaxConnections(),
            maxPerIP: limits.maxConnectionsPerIP,
            maxPerToken: limits.maxConnectionsPerToken
        )
        let sessionIDs = SessionIDSource()
        let queuedBytes = QueuedBytesTotal(meter: metrics.queuedBytes)
        let session = SessionCollaborators(
            leagues: leagues,
            tokens: tokens,
            connections: connections,
            metrics: metrics,
            limits: limits,
            nodeID: nodeID,
            threadPool: threadPool,
            logger: logger,
            makeSessionID: { sessionIDs.next() },
            adjustQueuedBytes: { queuedBytes.adjust(by: $0) }
        )
        let rest = RESTAPI.Collaborators(
            leagues: leagues,
            tokens: tokens,
            threadPool: threadPool,
            context: RESTContext(anonymousRole: configuration.httpAnonymousRole),
            overloadedRetryMilliseconds: limits.overloadedRetryMilliseconds,
            clock: parts.clock
        )
        let http = HTTPRequestHandler.Collaborators(
            health: HealthReport(
                engine: defaultLeague.engine,
                storeHead: defaultLeague.storeHead,
                connections: connections,
                nodeID: nodeID,
                epoch: recovered.epoch,
                storeKind: storage.kind,
                leagues: leagues
            ),
            metrics: metrics,
            tokens: tokens,
            threadPool: threadPool,
            limits: limits,
            rest: rest
        )
        self.leagues = leagues
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
            leagues: leagues,
            threadPool: threadPool,
            metrics: metrics,
            interval: configuration.maintenanceIntervalSeconds,
            followsOtherNodes: parts.followsOtherNodes,
            logger: logger
        )
        self.presence = PresenceService(registry: defaultLeague.presence)
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
