import Configuration
import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore
import Logging

/// The checked result of loading: the `ServerConfiguration` the daemon runs with, the logging choices, and every
/// key's effective value and origin (for `check-config`).
///
/// Value type, `Sendable`.
struct EffectiveConfiguration: Sendable {
    var server: ServerConfiguration
    /// The PostgreSQL store, when `store.url` is set (with its password resolved); nil: SQLite in the state
    /// directory.
    var postgres: PostgresStoreConfiguration?
    var logLevel: Logger.Level
    var logFormat: LogFormat
    /// Every key, in `GoaldSettings.all` order.
    var settings: [ResolvedSetting]
    /// The YAML file used, if any.
    var configFile: String?
    /// `GOALD_*` variables that name no key.
    var unknownEnvironmentVariables: [String]

    /// Loads and checks the configuration.
    /// - Throws: `ConfigurationError` listing every problem (wrong types, values out of range, TLS settings that
    ///   do not go together, a metrics listener off loopback, …).
    static func load(_ sources: ConfigurationSources) async throws(ConfigurationError) -> EffectiveConfiguration {
        let (settings, configFile) = try await ConfigurationLoader.resolve(sources)
        var builder = Builder(
            settings: settings,
            workingDirectory: sources.workingDirectory,
            home: sources.environment["HOME"]
        )
        let configuration = builder.build()
        guard builder.problems.isEmpty, let configuration else {
            throw ConfigurationError(problems: builder.problems)
        }
        return EffectiveConfiguration(
            server: configuration.server,
            postgres: configuration.postgres,
            logLevel: configuration.level,
            logFormat: configuration.format,
            settings: settings,
            configFile: configFile,
            unknownEnvironmentVariables: ConfigurationLoader.unknownEnvironmentVariables(sources.environment)
        )
    }

    /// Turns resolved values into typed configuration, collecting every problem.
    private struct Builder {
        let byKey: [String: ResolvedSetting]
        let workingDirectory: String
        let home: String?
        var problems: [ConfigurationProblem] = []

        init(settings: [ResolvedSetting], workingDirectory: String, home: String?) {
            byKey = Dictionary(uniqueKeysWithValues: settings.map { ($0.setting.key, $0) })
            self.workingDirectory = workingDirectory
            self.home = home
        }

        private func path(_ text: String) -> String {
            ConfigurationLoader.absolutePath(text, in: workingDirectory, home: home)
        }

        mutating func build() -> (
            server: ServerConfiguration, postgres: PostgresStoreConfiguration?, level: Logger.Level, format: LogFormat
        )? {
            let host = text("host") ?? ""
            if host.isEmpty { problem("host", "must not be empty") }
            let port = integer("port", in: 0...65_535)
            let stateText = text(GoaldSettings.stateDirKey) ?? ""
            if stateText.isEmpty { problem(GoaldSettings.stateDirKey, "must not be empty") }
            let stateDirectory = path(stateText)
            let publicHosts = list("publicHosts")
            for host in publicHosts {
                do {
                    _ = try CertificateHost(parsing: host)
                } catch {
                    problem("publicHosts", error.description)
                }
            }
            var configuration = ServerConfiguration(
                host: host,
                port: port,
                stateDirectory: stateDirectory,
                publicHosts: publicHosts,
                tls: tlsSource(),
                metricsListener: metricsListener(mainPort: port),
                limits: limits(),
                retention: retention(),
                clientRecords: clientRecords(),
                maintenanceIntervalSeconds: integer("maintenanceIntervalSeconds", in: 1...86_400),
                eventLoopThreads: integer("eventLoopThreads", in: 0...1_024),
                nodeID: nodeID(),
                httpAnonymousRole: httpAnonymousRole(),
                permessageDeflate: byKey["websocket.permessageDeflate"]?.value != .bool(false)
            )
            configuration.leagueIdleSeconds = Double(integer("leagues.idleSeconds", in: 0...86_400))
            let levelText = text("log.level") ?? "info"
            let level = Logger.Level(rawValue: levelText.lowercased())
            if level == nil {
                problem(
                    "log.level",
                    "\"\(levelText)\" is not one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            let formatText = text("log.format") ?? "text"
            let format = LogFormat(rawValue: formatText.lowercased())
            if format == nil { problem("log.format", "\"\(formatText)\" is not text or json") }
            let postgres = postgresStore()
            guard let level, let format else { return nil }
            return (configuration, postgres, level, format)
        }

        /// `http.anonymousRole`: none (nil), viewer or editor; admin is refused (token administration must never be
        /// anonymous).
        private mutating func httpAnonymousRole() -> Role? {
            let value = (text("http.anonymousRole") ?? "none").lowercased()
            switch value {
            case "none": return nil
            case "viewer": return .viewer
            case "editor": return .editor
            default:
                problem("http.anonymousRole", "\"\(value)\" is not one of none, viewer, editor")
                return nil
            }
        }

        /// `nodeId`, checked; nil when unset (the daemon then uses the id kept in its state directory).
        private mutating func nodeID() -> String? {
            guard let text = text("nodeId") else { return nil }
            if let problem = NodeIdentity.problem(with: text) { self.problem("nodeId", problem) }
            return text
        }

        /// The PostgreSQL store of `store.url`; its password from the URL only when the URL came from the environment
        /// or the file (never a flag), else from `store.password` or `store.passwordFile`.
        private mutating func postgresStore() -> PostgresStoreConfiguration? {
            guard let url = text("store.url"), let resolved = byKey["store.url"] else { return nil }
            var configuration: PostgresStoreConfiguration
            do {
                configuration = try PostgresStoreConfiguration(url: url)
            } catch {
                problem("store.url", error.description)
                return nil
            }
            if configuration.password != nil, resolved.layer == .flags {
                problem(
                    "store.url",
                    "a password on the command line is visible to every user; put it in GOALD_STORE_PASSWORD or "
                        + "store.passwordFile"
                )
                return nil
            }
            if configuration.password == nil {
                if let password = text("store.password") {
                    configuration.password = password
                } else if let file = text("store.passwordFile") {
                    do {
                        let contents = try String(contentsOfFile: path(file), encoding: .utf8)
                        configuration.password = String(contents.prefix { $0 != "\n" && $0 != "\r" })
                    } catch {
                        problem("store.passwordFile", "cannot read \(path(file)): \(error.localizedDescription)")
                        return nil
                    }
                }
            }
            return configuration
        }

        private mutating func tlsSource() -> ServerConfiguration.TLSSource {
            let certificateFile = text("tls.certificateFile")
            let keyFile = text("tls.privateKeyFile")
            let certificatePEM = text("tls.certificatePEM")
            let keyPEM = text("tls.privateKeyPEM")
            switch (certificateFile, keyFile, certificatePEM, keyPEM) {
            case (nil, nil, nil, nil):
                return .generated
            case (let certificate?, let key?, nil, nil):
                return .files(
                    certificate: path(certificate),
                    privateKey: path(key)
                )
            case (nil, nil, let certificate?, let key?):
                return .pem(certificateChain: certificate, privateKey: SecretText(key))
            case (_?, nil, nil, nil):
                problem("tls.privateKeyFile", "is required when tls.certificateFile is set")
            case (nil, _?, nil, nil):
                problem("tls.certificateFile", "is required when tls.privateKeyFile is set")
            case (nil, nil, _?, nil):
                problem("tls.privateKeyPEM", "is required when tls.certificatePEM is set")
            case (nil, nil, nil, _?):
                problem("tls.certificatePEM", "is required when tls.privateKeyPEM is set")
            default:
                problem("tls", "give the certificate and key either as files or as inline PEM, not both")
            }
            return .generated
        }

        private mutating func metricsListener(mainPort: Int) -> ServerConfiguration.MetricsListener? {
            let host = text("metrics.host") ?? ""
            let port = integer("metrics.port", in: 0...65_535)
            guard case .bool(true)? = byKey["metrics.enabled"]?.value else { return nil }
            if !Self.isLoopback(host) {
                problem(
                    "metrics.host",
                    "\"\(host)\" is not a loopback address; the metrics listener is plaintext "
                        + "and unauthenticated, so it must bind 127.0.0.1, ::1 or localhost"
                )
            }
            if port != 0 && port == mainPort && (text("host") ?? "") == host {
                problem("metrics.port", "\(port) is the main listener's port; choose another")
            }
            return ServerConfiguration.MetricsListener(host: host, port: port)
        }

        private mutating func limits() -> ServerLimits {
            let maxConnections = integer("limits.maxConnections", in: 0...Int(Int32.max))
            return ServerLimits(
                maxConnections: maxConnections == 0 ? nil : maxConnections,
                maxConnectionsPerIP: positive("limits.maxConnectionsPerIP"),
                maxConnectionsPerToken: positive("limits.maxConnectionsPerToken"),
                maxInboundMessageBytes: positive("limits.maxInboundMessageBytes"),
                maxBytesBeforeHello: positive("limits.maxBytesBeforeHello"),
                handshakeTimeoutMilliseconds: positive("limits.handshakeTimeoutMilliseconds"),
                idleTimeoutMilliseconds: positive("limits.idleTimeoutMilliseconds"),
                pingIntervalMilliseconds: positive("limits.pingIntervalMilliseconds"),
                mutationsPerSecond: positiveNumber("limits.mutationsPerSecond"),
                mutationBurst: positiveNumber("limits.mutationBurst"),
                framesPerSecond: positiveNumber("limits.framesPerSecond"),
                frameBurst: positiveNumber("limits.frameBurst"),
                sessionQueueBytes: positive("limits.sessionQueueBytes"),
                globalQueueBytes: positive("limits.globalQueueBytes"),
                slowConsumerAbortMilliseconds: positive("limits.slowConsumerAbortMilliseconds"),
                engineInboxCapacity: positive("limits.engineInboxCapacity"),
                overloadedRetryMilliseconds: positive("limits.overloadedRetryMilliseconds"),
                backlogPageSize: positive("limits.backlogPageSize"),
                concurrentSnapshotBuilds: positive("limits.concurrentSnapshotBuilds"),
                fanoutCoalesceMilliseconds: integer("limits.fanoutCoalesceMilliseconds", in: 0...10_000)
            )
        }

        private mutating func retention() -> RetentionPolicy {
            RetentionPolicy(
                maximumChangesets: UInt64(positive("retention.maximumChangesets")),
                maximumAge: .seconds(positive("retention.maximumAgeSeconds")),
                chunkSize: positive("retention.chunkSize")
            )
        }

        private mutating func clientRecords() -> ClientRecordPolicy {
            let minimum = Int(ClientRecordPolicy.minimumAge.components.seconds)
            return ClientRecordPolicy(
                maximumAge: .seconds(integer("clientRecords.maximumAgeSeconds", in: minimum...Int(Int32.max))),
                maximumCount: positive("clientRecords.maximumCount")
            )
        }

        static func isLoopback(_ host: String) -> Bool {
            if host.lowercased() == "localhost" { return true }
            // A host that is not an IP address (a name) is not a loopback literal.
            guard let parsed = try? CertificateHost(parsing: host), case .ipAddress(let bytes) = parsed else {
                return false
            }
            return bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
        }

        private func text(_ key: String) -> String? {
            if case .string(let value)? = byKey[key]?.value { return value }
            return nil
        }

        private func list(_ key: String) -> [String] {
            if case .stringArray(let values)? = byKey[key]?.value { return values }
            return []
        }

        private mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int {
            guard case .int(let value)? = byKey[key]?.value else { return range.lowerBound }
            guard range.contains(value) else {
                problem(key, "\(value) is out of range; allowed: \(range.lowerBound)…\(range.upperBound)")
                return range.lowerBound
            }
            return value
        }

        private mutating func positive(_ key: String) -> Int {
            guard case .int(let value)? = byKey[key]?.value else { return 1 }
            guard value > 0 else {
                problem(key, "\(value) must be positive (at least 1)")
                return 1
            }
            return value
        }

        private mutating func positiveNumber(_ key: String) -> Double {
            guard case .double(let value)? = byKey[key]?.value else { return 1 }
            guard value > 0, value.isFinite else {
                problem(key, "\(Setting.text(.double(value))) must be a positive number")
                return 1
            }
            return value
        }

        private mutating func problem(_ key: String, _ message: String) {
            let origin = byKey[key].flatMap { $0.value == nil ? nil : $0.origin }
            problems.append(ConfigurationProblem(key: key, origin: origin, message: message))
        }
    }
}

/// How log lines are written.
enum LogFormat: String, CaseIterable, Sendable {
    /// swift-log's human-readable stream handler.
    case text
    /// One JSON object per line.
    case json
}
