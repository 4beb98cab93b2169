import ArgumentParser
import Dispatch
import Foundation
import GoalCommandLine
import GoalPostgres
import GoalServer
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Goald {
    /// `goald serve` (the default): prepares the state, runs the daemon until SIGTERM/SIGINT, reloads TLS on SIGHUP.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the daemon (the default subcommand).",
            discussion: "Opens the store, loads or generates the TLS material, makes the first admin token, then "
                + "listens on wss://HOST:PORT/v1/stream. SIGTERM or SIGINT shut it down gracefully (sessions "
                + "drain); SIGHUP reloads the certificates."
        )

        @OptionGroup var state: StateOptions
        @OptionGroup var serve: ServeOptions

        func run() async throws {
            try await Self.start(state: state, serve: serve)
        }

        /// Builds the configuration and logging, then serves. Kept out of `run()`: Swift 6.3.1's optimizer crashed
        /// splitting `run()`'s coroutine when this body lived there (release builds only).
        @inline(never)
        static func start(state: StateOptions, serve options: ServeOptions) async throws {
            var context = CommandContext.live()
            // A daemon outlives a closed standard output (`goald serve | head -3`): the banner is a courtesy, so a
            // line nobody reads is dropped instead of ending the process as the short commands do.
            context.output = { line in _ = StandardStreams.write(line + "\n", to: STDOUT_FILENO) }
            let configuration = try await context.configuration(state: state, serve: options)
            // Before anything is created: a port in use must not leave a state directory behind.
            try PortProbe.check(host: configuration.server.host, port: configuration.server.port, flag: "--port")
            if let metrics = configuration.server.metricsListener {
                try PortProbe.check(host: metrics.host, port: metrics.port, flag: "--metrics-port")
            }
            LogBootstrap.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
            var logger = Logger(label: "goald")
            logger.logLevel = configuration.logLevel
            for variable in configuration.unknownEnvironmentVariables {
                logger.warning("goald.config.unknown_variable", metadata: ["goal.config.variable": "\(variable)"])
            }
            do {
                try await Self.serve(configuration, context: context, logger: logger)
            } catch {
                logger.critical("goald.failed", metadata: ["goal.error": "\(error)"])
                throw CommandFailure("goald stopped: \(error)")
            }
        }

        /// Prepares the state and runs the daemon in a `ServiceGroup` until graceful shutdown.
        static func serve(_ configuration: EffectiveConfiguration, context: CommandContext, logger: Logger) async throws
        {
            let server = configuration.server
            let store = configuration.postgres.map { StoreAccess.external($0, retention: server.retention) }
            let prepared = try StatePreparation.prepare(server, store: store, logger: logger)
            // swift-metrics from every library lands in the registry the daemon serves on /metrics.
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            let daemon = try GoalDaemon(
                configuration: server,
                prepared: prepared,
                metricsRegistry: registry,
                logger: logger
            )
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [
                        .init(service: daemon),
                        .init(
                            service: TLSReloadService(daemon: daemon, logger: logger),
                            successTerminationBehavior: .ignore
                        ),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            // The group's task returns true; once it ends (shutdown or failure), the banner task is cancelled in
            // case the daemon stopped before it ever listened.
            try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return true
                }
                tasks.addTask {
                    let addresses = try await daemon.listeningAddresses()
                    let banner = ServeBanner(
                        configuration: server,
                        addresses: addresses,
                        fingerprint: prepared.tls.fingerprint,
                        authorityCertificatePath: prepared.tls.authorityCertificatePath,
                        firstAdminToken: prepared.firstAdminToken,
                        showSecret: context.standardOutputIsTerminal,
                        externalStore: configuration.postgres?.description
                    )
                    for line in banner.lines { context.output(line) }
                    return false
                }
                for try await groupEnded in tasks where groupEnded {
                    tasks.cancelAll()
                    break
                }
            }
        }
    }
}

/// SIGHUP → `daemon.reloadTLS()`: a swift-service-lifecycle `Service` in the daemon's group, reading UnixSignals'
/// sequence (the signal is handled on a queue, never in signal context), like the group's own SIGTERM/SIGINT.
///
/// Lifetime: the group's; graceful shutdown ends its iteration.
struct TLSReloadService: Service {
    let daemon: GoalDaemon
    let logger: Logger

    func run() async {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try daemon.reloadTLS()
                logger.info("goald.tls.reload_requested")
            } catch {
                logger.error("goald.tls.reload_failed", metadata: ["goal.error": "\(error)"])
            }
        }
    }
}
