import GoalModel
import GoalStore
import Logging
import NIOCore
import NIOPosix

/// One league as this daemon serves it: its store, its engine (one serial order), its hub (its own shard on every
/// event loop, so a changeset of league A is only ever written into A's live windows and reaches only A's sessions),
/// its client instances, snapshot cache and presence, its epoch. Built by `LeagueRuntime.Factory` (the default league
/// at start-up, the others by `LeagueHost` on first use).
///
/// Threading: `Sendable`, immutable; each part keeps its own threading rules. Lifetime: from the factory until the
/// host unloads it (`LeagueHost`: idle, deleted, failed, or the daemon stops), when its engine is stopped, its
/// sessions closed, its presence stopped and (for every league but the default one, whose store the daemon owns)
/// its store closed.
final class LeagueRuntime: Sendable {
    let slug: LeagueSlug
    let storage: any LeagueStorage
    let engine: Engine
    let hub: Hub
    let instances: InstanceRegistry
    let snapshots: SnapshotCache
    let presence: PresenceRegistry
    let storeHead: ObservedStoreHead
    let epoch: LeagueEpoch

    init(
        slug: LeagueSlug,
        storage: any LeagueStorage,
        engine: Engine,
        hub: Hub,
        snapshots: SnapshotCache,
        presence: PresenceRegistry,
        head: Revision,
        epoch: LeagueEpoch
    ) {
        self.slug = slug
        self.storage = storage
        self.engine = engine
        self.hub = hub
        self.instances = InstanceRegistry()
        self.snapshots = snapshots
        self.presence = presence
        self.storeHead = ObservedStoreHead(head)
        self.epoch = epoch
    }

    /// Builds the runtime of a recovered league: everything a league needs that the daemon shares between leagues
    /// (loops, thread pool, metrics, limits, the node's name, the parts, the compressor).
    ///
    /// Value type, `Sendable`.
    struct Factory: Sendable {
        let configuration: ServerConfiguration
        let nodeID: String
        let loops: [any EventLoop]
        let threadPool: NIOThreadPool
        let metrics: ServerMetrics
        let parts: DaemonParts
        let compression: ChangesetCompression?
        let logger: Logger

        /// The runtime of `slug`, whose store `storage` recovered as `recovered`.
        /// - Parameter onFatalError: Called (once) when the league's engine stops on a store failure.
        func make(
            _ slug: LeagueSlug,
            storage: any LeagueStorage,
            recovered: DurableLeague,
            onFatalError: @escaping @Sendable (StorageError) -> Void
        ) -> LeagueRuntime {
            let limits = configuration.limits
            var logger = self.logger
            if !slug.isDefault { logger[metadataKey: "goal.league"] = "\(slug)" }
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
            if slug.isDefault { parts.receiveClientRecordSweeper(engine) }
            // Other nodes' commits: their notifications (with the batch when it fits); `Maintenance` also reads the
            // head every 2 s.
            if parts.followsOtherNodes {
                (storage as? any SharedLeagueStorage)?.watchHead { [weak engine] notice in engine?.follow(notice) }
            }
            // The default league's bus is the one the parts name (a test's in-process bus); another league's is its
            // own store's when the daemon's presence travels on the store (PostgreSQL, one channel per league).
            let bus: (any PresenceBus)? =
                slug.isDefault ? parts.presenceBus : (parts.presenceBus == nil ? nil : storage as? any PresenceBus)
            return LeagueRuntime(
                slug: slug,
                storage: storage,
                engine: engine,
                hub: hub,
                snapshots: SnapshotCache(
                    threadPool: threadPool,
                    metrics: metrics,
                    maxConcurrentBuilds: limits.concurrentSnapshotBuilds
                ),
                presence: PresenceRegistry(
                    node: nodeID,
                    hub: hub,
                    configuration: limits.presence,
                    bus: bus,
                    logger: logger
                ),
                head: recovered.head,
                epoch: recovered.epoch
            )
        }
    }
}
