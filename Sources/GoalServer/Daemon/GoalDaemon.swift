// STUB from the `ops` branch, with the designated API of the lead's GoalDaemon in main (configuration, storage,
// tlsContext, metricsRegistry, logger). The lead's file replaces this one when merging; `GoalDaemon+Prepared.swift`
// (ops) builds on that designated initializer.
public import GoalStore
public import Logging
public import NIOSSL
public import Prometheus
public import ServiceLifecycle

/// Stand-in for the running daemon (listener, sessions, engine, writer, hub) so the goald executable builds on
/// this branch: it builds the TLS context, reports the configured address and waits for graceful shutdown.
///
/// `Sendable`; `run()` returns after graceful shutdown.
public final class GoalDaemon: Service, Sendable {
    private let configuration: ServerConfiguration
    private let storage: any LeagueStorage
    private let makeTLSContext: @Sendable () throws -> NIOSSLContext
    private let logger: Logger

    public init(
        configuration: ServerConfiguration,
        storage: any LeagueStorage,
        tlsContext: @escaping @Sendable () throws -> NIOSSLContext,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger
    ) {
        self.configuration = configuration
        self.storage = storage
        self.makeTLSContext = tlsContext
        self.logger = logger
    }

    /// Waits until the listeners are bound.
    public func listeningAddresses() async throws -> DaemonAddresses {
        DaemonAddresses(
            host: configuration.host,
            port: configuration.port,
            metricsPort: configuration.metricsListener?.port
        )
    }

    /// Rebuilds the TLS context (SIGHUP).
    public func reloadTLS() throws {
        _ = try makeTLSContext()
        logger.info("TLS certificates reloaded")
    }

    public func run() async throws {
        _ = try makeTLSContext()
        try await gracefulShutdown()
        try storage.close()
    }
}
