public import Logging
public import Prometheus

extension GoalDaemon {
    /// Builds the daemon `goald serve` runs from `StatePreparation.prepare`'s result: the prepared store, and a TLS
    /// context loaded from `configuration.tls` whenever the daemon asks for one (at start and on every
    /// `reloadTLS()`, i.e. SIGHUP), so replaced certificate files, or a development certificate that needs
    /// re-issuing, take effect for new connections.
    /// - Throws: `TLSError` when the prepared material does not make a server context.
    public convenience init(
        configuration: ServerConfiguration,
        prepared: PreparedState,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger
    ) throws {
        _ = try prepared.tls.makeServerContext()
        self.init(
            configuration: configuration,
            storage: prepared.storage,
            tlsContext: { try TLSMaterial.load(for: configuration).makeServerContext() },
            metricsRegistry: metricsRegistry,
            logger: logger
        )
    }
}
