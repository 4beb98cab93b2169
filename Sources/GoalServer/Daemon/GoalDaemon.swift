// STUB from the `ops` branch: the lead's GoalDaemon replaces this file when merging. Same public API.
public import Logging
public import Prometheus
public import ServiceLifecycle

/// The running daemon (listener, sessions, engine, writer, hub). This is a stand-in with the real API so the
/// goald executable builds; it binds nothing and reports the configured address.
///
/// `Sendable`; `run()` returns after graceful shutdown.
public final class GoalDaemon: Service, Sendable {
    private let configuration: ServerConfiguration
    private let prepared: PreparedState
    private let logger: Logger

    public init(
        configuration: ServerConfiguration,
        prepared: PreparedState,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger
    ) throws {
        self.configuration = configuration
        self.prepared = prepared
        self.logger = logger
    }

    /// Serves until graceful shutdown, then drains.
    public func run() async throws {
        try await gracefulShutdown()
    }

    /// Waits until the listeners are bound.
    public func listeningAddresses() async throws -> DaemonAddresses {
        DaemonAddresses(
            host: configuration.host,
            port: configuration.port,
            metricsPort: configuration.metricsListener?.port
        )
    }

    /// Reloads the TLS material (SIGHUP).
    public func reloadTLS() throws {
        _ = try TLSMaterial.load(for: configuration)
        logger.info("goald.tls.reloaded")
    }
}

/// Where a running daemon listens. Value type, `Sendable`.
public struct DaemonAddresses: Sendable {
    public var host: String
    public var port: Int
    public var metricsPort: Int?

    public init(host: String, port: Int, metricsPort: Int?) {
        self.host = host
        self.port = port
        self.metricsPort = metricsPort
    }
}
