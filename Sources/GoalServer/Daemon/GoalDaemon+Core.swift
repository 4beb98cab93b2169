import Foundation
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Prometheus
import ServiceLifecycle

/// Building the daemon's parts: the `ServerCore` every session shares, and how this process names itself.
extension GoalDaemon {
    /// This process, as another node refused its node id is told: host, pid, port and state directory.
    var processDescription: String {
        let port = configuration.port == 0 ? "any port" : "port \(configuration.port)"
        return
            "host \(ProcessInfo.processInfo.hostName), pid \(getpid()), \(port), state \(configuration.stateDirectory)"
    }

    func makeCore(
        recovered: DurableLeague,
        nodeID: String,
        group: MultiThreadedEventLoopGroup,
        threadPool: NIOThreadPool
    ) -> ServerCore {
        let metrics = ServerMetrics(registry: registry)
        var loops: [any EventLoop] = []
        for loop in group.makeIterator() { loops.append(loop) }
        let hub = Hub(
            eventLoops: loops,
            head: recovered.head,
            headDigest: recovered.headDigest,
            coalescePause: .milliseconds(Int64(configuration.limits.fanoutCoalesceMilliseconds)),
            gate: testHooks.fanoutGate,
            compression: makeCompression(),
            metrics: metrics
        )
        let engine = Engine(
            recovered: recovered,
            capacity: configuration.limits.engineInboxCapacity,
            clientRecordPolicy: configuration.clientRecords,
            writer: BatchWriter(storage: storage),
            hub: hub,
            metrics: metrics,
            logger: logger,
            now: testHooks.clock ?? { .now() },
            onFatalError: { [weak self] error in self?.signalStop(.fatal("a batch write failed: \(error)")) }
        )
        testHooks.clientRecordSweep?.attach(engine)
        // Other nodes' commits: their notifications (with the batch when it fits); `Maintenance` also reads the head
        // every 2 s.
        if testHooks.followsOtherNodes {
            (storage as? any SharedLeagueStorage)?.watchHead { [weak engine] notice in engine?.follow(notice) }
        }
        let maxConnections = configuration.limits.maxConnections ?? Self.defaultMaxConnections()
        return ServerCore(
            engine: engine,
            hub: hub,
            storage: storage,
            tokens: TokenDirectory(storage: storage),
            connections: ConnectionLimiter(
                maxTotal: maxConnections,
                maxPerIP: configuration.limits.maxConnectionsPerIP,
                maxPerToken: configuration.limits.maxConnectionsPerToken
            ),
            instances: InstanceRegistry(),
            snapshots: SnapshotCache(
                threadPool: threadPool,
                metrics: metrics,
                maxConcurrentBuilds: configuration.limits.concurrentSnapshotBuilds
            ),
            metrics: metrics,
            limits: configuration.limits,
            epoch: recovered.epoch.rawValue,
            nodeID: nodeID,
            storeHead: recovered.head,
            threadPool: threadPool,
            logger: logger,
            presenceBus: testHooks.presenceBus ?? storage as? any PresenceBus,
            httpAnonymousRole: configuration.httpAnonymousRole
        )
    }
}
