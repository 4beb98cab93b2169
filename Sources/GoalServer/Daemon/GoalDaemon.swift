import Foundation
import GoalLocking
import GoalModel
public import GoalStore
import GoalWire
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
public import NIOSSL
public import Prometheus
public import ServiceLifecycle

/// The daemon: recovers the league from its store, starts the engine, the writer and the hub, binds the TLS
/// WebSocket listener (and the optional loopback metrics listener), and serves until a graceful shutdown.
///
/// Shutdown (SIGTERM/SIGINT through the `ServiceGroup`): stop accepting, let the engine finish and fsync the open
/// batch and publish it, close every session with `error{shutting_down}` + 1001, close the store, return. A failed
/// batch write instead closes sessions with 4000 and makes `run()` throw, so the process exits non-zero.
///
/// Threading: `Sendable`; `run()` is called once; `listeningAddresses()` and `reloadTLS()` from any task or
/// thread. Lifetime: `run()` owns every resource it creates and releases them before returning.
public final class GoalDaemon: Service, Sendable {
    let configuration: ServerConfiguration
    let storage: any LeagueStorage
    private let makeTLSContext: @Sendable () throws -> NIOSSLContext
    let registry: PrometheusCollectorRegistry
    let logger: Logger
    /// What the composition root builds the daemon from besides the configuration and store.
    let parts: DaemonParts
    private let tlsContext: NIOLockedValueBox<NIOSSLContext?> = NIOLockedValueBox(nil)
    /// Opened once: with the bound addresses, or with the error that kept the daemon from binding.
    private let addresses = AsyncLatch<Result<DaemonAddresses, any Error>>()
    /// Opened by the first stop request (graceful or fatal); `serve()` waits on it.
    private let stopped = AsyncLatch<StopReason>()

    /// - Parameters:
    ///   - configuration: Where to listen and every limit.
    ///   - storage: The opened store (SQLite in production, in-memory in tests); the daemon closes it when it stops.
    ///   - tlsContext: Builds the listener's TLS context; called at start and again by `reloadTLS()`.
    ///   - metricsRegistry: The registry `/metrics` renders.
    ///   - logger: The daemon's logger.
    public convenience init(
        configuration: ServerConfiguration,
        storage: any LeagueStorage,
        tlsContext: @escaping @Sendable () throws -> NIOSSLContext,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger
    ) {
        self.init(
            configuration: configuration,
            storage: storage,
            tlsContext: tlsContext,
            metricsRegistry: metricsRegistry,
            logger: logger,
            parts: DaemonParts(storage: storage)
        )
    }

    /// A daemon built from other parts than production's (GoalTestSupport's `DaemonSeams` makes them); the other
    /// parameters are those of the public initializer.
    package init(
        configuration: ServerConfiguration,
        storage: any LeagueStorage,
        tlsContext: @escaping @Sendable () throws -> NIOSSLContext,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger,
        parts: DaemonParts
    ) {
        self.parts = parts
        self.configuration = configuration
        self.storage = storage
        self.makeTLSContext = tlsContext
        self.registry = metricsRegistry
        self.logger = logger
    }

    /// Waits until the listeners are bound and returns their addresses.
    /// - Throws: `DaemonError` when the daemon failed before binding.
    public func listeningAddresses() async throws -> DaemonAddresses {
        try await addresses.wait().get()
    }

    /// Rebuilds the TLS context (SIGHUP); new connections use it, open ones keep theirs.
    public func reloadTLS() throws {
        let context = try makeTLSContext()
        tlsContext.withLockedValue { $0 = context }
        logger.info("TLS certificates reloaded")
    }

    /// Stops the daemon as a graceful shutdown would (tests; the service group uses its own signal).
    public func stop() {
        signalStop(.graceful)
    }

    public func run() async throws {
        do {
            try await serve()
        } catch {
            resolveAddresses(.failure(DaemonError("goald could not start: \(error)")))
            throw error
        }
    }

    // MARK: - Serving

    private func serve() async throws {
        let initialTLS = try makeTLSContext()
        tlsContext.withLockedValue { $0 = initialTLS }
        let recovered: DurableLeague
        let nodeID: String
        do {
            recovered = try storage.recover()
            nodeID = try NodeIdentity.resolve(
                explicit: configuration.nodeID,
                stateDirectory: configuration.stateDirectory
            )
            // Before any socket: a node whose id a live node already holds must not serve (presence ids would mix).
            if let shared = storage as? any SharedLeagueStorage {
                try await shared.claimNode(nodeID, holder: processDescription)
            }
        } catch {
            closeStorage()
            throw error
        }
        let threads = configuration.eventLoopThreads > 0 ? configuration.eventLoopThreads : System.coreCount
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let threadPool = NIOThreadPool(numberOfThreads: 2)
        threadPool.start()
        let composition = DaemonComposition(
            configuration: configuration,
            storage: storage,
            recovered: recovered,
            nodeID: nodeID,
            group: group,
            threadPool: threadPool,
            registry: registry,
            parts: parts,
            compression: makeCompression(),
            logger: logger,
            onFatalError: { [weak self] error in self?.signalStop(.fatal("a batch write failed: \(error)")) }
        )

        var channels: [any Channel] = []
        do {
            // The tokens table must be readable before anyone says hello (a store that cannot read it fails here).
            _ = try composition.tokens.refresh()
            let stream = try await bindStream(group: group, pipeline: composition.pipeline)
            channels.append(stream)
            var metricsPort: Int?
            if let listener = configuration.metricsListener {
                let metrics = try await bindMetrics(listener, group: group, pipeline: composition.pipeline)
                channels.append(metrics)
                metricsPort = metrics.localAddress?.port
            }
            let bound = DaemonAddresses(
                host: configuration.host,
                port: stream.localAddress?.port ?? configuration.port,
                metricsPort: metricsPort,
                nodeID: nodeID
            )
            logger.info(
                "goald listening",
                metadata: [
                    "goal.port": "\(bound.port)", "goal.head": "\(recovered.head)", "goal.epoch": "\(recovered.epoch)",
                    "goal.node": "\(nodeID)",
                ]
            )
            resolveAddresses(.success(bound))
        } catch {
            await release(channels: channels, threadPool: threadPool, group: group)
            throw error
        }

        let services = composition.serviceGroup(logger: logger)
        let servicesTask = Task { try await services.run() }
        let reason = await withGracefulShutdownHandler {
            await waitForStop()
        } onGracefulShutdown: {
            self.signalStop(.graceful)
        }
        switch reason {
        case .graceful:
            // Presence says goodbye (the other nodes drop this node's members at once) before any session closes,
            // and `Maintenance` stops; both before the listeners close.
            await services.triggerGracefulShutdown()
            await finish(servicesTask)
        case .fatal:
            servicesTask.cancel()  // no goodbye: the other nodes time this node out
        }

        logger.info("goald stopping", metadata: ["goal.reason": "\(reason)"])
        await close(channels)
        await composition.engine.stop()
        switch reason {
        case .graceful:
            let message = "the server is shutting down; reconnect shortly"
            await composition.leagues.stopAll(code: .shuttingDown, message: message)
            await composition.hub.closeAll(.shuttingDown, message)
        case .fatal(let message):
            let text = "the server failed and restarts from its store: \(message)"
            await composition.leagues.stopAll(code: .internalError, message: text)
            await composition.hub.closeAll(.internalError, text)
        }
        await waitForConnectionsToClose(composition.connections, upTo: .seconds(3))
        await finish(servicesTask)  // a housekeeping store call under way ends before the store closes
        closeStorage()
        await release(channels: [], threadPool: threadPool, group: group)
        if case .fatal(let message) = reason { throw DaemonError(message) }
    }

    /// Waits for the daemon's service group to end; a failure is logged (the daemon is stopping either way).
    private func finish(_ services: Task<Void, any Error>) async {
        do {
            try await services.value
        } catch is CancellationError {
            return
        } catch {
            logger.warning("a daemon service did not stop cleanly", metadata: ["goal.error": "\(error)"])
        }
    }

    /// Closes the store; a failure is logged (the daemon is stopping either way).
    private func closeStorage() {
        do {
            try storage.close()
        } catch {
            logger.error("the store did not close cleanly", metadata: ["goal.error": "\(error)"])
        }
    }

    /// Closes the listeners; a listener that fails to close is logged, not fatal (the process is stopping).
    private func close(_ channels: [any Channel]) async {
        for channel in channels {
            do {
                try await channel.close()
            } catch ChannelError.alreadyClosed {
                continue
            } catch {
                logger.warning("a listener did not close cleanly", metadata: ["goal.error": "\(error)"])
            }
        }
    }

    /// Closes the listeners, then stops the thread pool and the event loops, logging what fails to stop.
    private func release(channels: [any Channel], threadPool: NIOThreadPool, group: MultiThreadedEventLoopGroup) async {
        await close(channels)
        do {
            try await threadPool.shutdownGracefully()
            try await group.shutdownGracefully()
        } catch {
            logger.warning("the daemon's threads did not stop cleanly", metadata: ["goal.error": "\(error)"])
        }
    }

    /// The fan-out's permessage-deflate, or nil when it is off (or zlib cannot start: then offers are declined).
    func makeCompression() -> ChangesetCompression? {
        guard configuration.permessageDeflate else { return nil }
        do {
            return try ChangesetCompression(logger: logger)
        } catch {
            logger.error("permessage-deflate is off: zlib did not start", metadata: ["goal.error": "\(error)"])
            return nil
        }
    }

    /// Each connection keeps its last receive buffer between reads. A client's messages are small (a mutation, a
    /// pong: well under 1 KiB with TLS), so buffers start at 512 bytes instead of NIO's 2,048 and grow only for a
    /// connection whose reads fill them: 1.5 KiB less per idle session (thousands of them per daemon).
    static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536)

    private func bindStream(group: MultiThreadedEventLoopGroup, pipeline: ServerPipeline) async throws -> any Channel {
        let tls = tlsContext
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4_096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: ServerPipeline.writeBufferWaterMark)
            .childChannelOption(.recvAllocator, value: Self.receiveBuffers)
            .childChannelInitializer { channel in
                guard let context = tls.withLockedValue({ $0 }) else { return channel.close() }
                return pipeline.configureStream(channel, tls: context)
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
    }

    private func bindMetrics(
        _ listener: ServerConfiguration.MetricsListener,
        group: MultiThreadedEventLoopGroup,
        pipeline: ServerPipeline
    ) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in pipeline.configureMetrics(channel) }
            .bind(host: listener.host, port: listener.port)
            .get()
    }

    private func waitForConnectionsToClose(_ connections: ConnectionLimiter, upTo limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while connections.total > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))  // cancelled: the loop's deadline still ends the wait
        }
    }

    /// The open-file limit minus 256 (the store's files and the daemon's own descriptors come first).
    static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return max(16, Int(min(limit.rlim_cur, 1 << 20)) - 256)
    }

    // MARK: - Stop signalling

    enum StopReason: Sendable, CustomStringConvertible {
        case graceful
        case fatal(String)

        var description: String {
            switch self {
            case .graceful: "graceful shutdown"
            case .fatal(let message): "fatal: \(message)"
            }
        }
    }

    func signalStop(_ reason: StopReason) {
        stopped.open(reason)
    }

    private func waitForStop() async -> StopReason {
        await stopped.wait()
    }

    private func resolveAddresses(_ result: Result<DaemonAddresses, any Error>) {
        addresses.open(result)
    }
}
