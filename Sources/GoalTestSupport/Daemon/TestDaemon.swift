import Foundation
import GoalModel
public import GoalServer
public import GoalStore
public import GoalTransport
import Logging
import NIOSSL
public import Prometheus

/// A goald running in this process for a test: real TLS on 127.0.0.1 port 0, a store of the test's choosing,
/// tokens of every role made up front, and helpers to connect raw WebSocket clients.
///
/// Threading: `Sendable`; every method may be called from any task. Lifetime: `start` → `stop()`; a test must
/// call `stop()` on success and failure paths (`withTestDaemon` does).
public final class TestDaemon: Sendable {
    /// The secrets of the tokens made before start, by role, plus a revoked one.
    public struct Tokens: Sendable {
        public let admin: String
        public let editor: String
        public let editor2: String
        public let viewer: String
        public let revoked: String
    }

    public let daemon: GoalDaemon
    public let storage: any LeagueStorage
    public let port: Int
    public let tokens: Tokens
    public let registry: PrometheusCollectorRegistry
    private let runTask: Task<Result<Void, any Error>, Never>

    private init(
        daemon: GoalDaemon,
        storage: any LeagueStorage,
        port: Int,
        tokens: Tokens,
        registry: PrometheusCollectorRegistry,
        runTask: Task<Result<Void, any Error>, Never>
    ) {
        self.daemon = daemon
        self.storage = storage
        self.port = port
        self.tokens = tokens
        self.registry = registry
        self.runTask = runTask
    }

    /// SHA-256 of a token secret, as the store keeps it.
    public static func hash(_ secret: String) -> [UInt8] {
        TokenSecret.hash(presented: secret)
    }

    /// Creates the standard tokens in `storage` unless they exist (a restarted daemon on the same store).
    public static func ensureTokens(in storage: any LeagueStorage) throws -> Tokens {
        let tokens = Tokens(
            admin: "gt_test-admin-secret",
            editor: "gt_test-editor-secret",
            editor2: "gt_test-editor2-secret",
            viewer: "gt_test-viewer-secret",
            revoked: "gt_test-revoked-secret"
        )
        let existing = Set(try storage.tokens().map(\.name))
        let now = Timestamp(millisecondsSince1970: 1_767_225_600_000)
        let wanted: [(String, Role, String, Bool)] = [
            ("admin", .admin, tokens.admin, false),
            ("alice", .editor, tokens.editor, false),
            ("bob", .editor, tokens.editor2, false),
            ("vera", .viewer, tokens.viewer, false),
            ("rex", .editor, tokens.revoked, true),
        ]
        for (name, role, secret, revoked) in wanted where !existing.contains(name) {
            try storage.createToken(
                StoredToken(
                    name: name,
                    role: role,
                    secretHash: hash(secret),
                    created: now,
                    revoked: revoked ? now : nil
                )
            )
        }
        return tokens
    }

    /// Starts a daemon on 127.0.0.1:0 over `storage` and waits until it listens.
    ///
    /// - Parameters:
    ///   - storage: The store (the daemon closes it when it stops). Default: a fresh in-memory store.
    ///   - limits: The limits; defaults suit tests.
    ///   - configure: Last changes to the configuration.
    public static func start(
        storage: any LeagueStorage = InMemoryLeagueStorage(),
        limits: ServerLimits = ServerLimits(),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestDaemon {
        try await start(storage: storage, limits: limits, seams: .none, configure: configure)
    }

    /// Starts a daemon whose parts differ from production's by `seams`; otherwise as
    /// `start(storage:limits:configure:)`.
    public static func start(
        storage: any LeagueStorage = InMemoryLeagueStorage(),
        limits: ServerLimits = ServerLimits(),
        seams: DaemonSeams,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestDaemon {
        let tokens = try ensureTokens(in: storage)
        var configuration = ServerConfiguration(
            host: "127.0.0.1",
            port: 0,
            stateDirectory: NSTemporaryDirectory(),
            limits: limits,
            maintenanceIntervalSeconds: 3_600,
            eventLoopThreads: 2,
            // Its own id: the shared temporary directory must not get a node-id file every test daemon would share.
            nodeID: "test-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        )
        configure(&configuration)
        let certificates = TestCertificates.shared
        let registry = PrometheusCollectorRegistry()
        var logger = Logger(label: "goald.test")
        logger.logLevel = ProcessInfo.processInfo.environment["GOALD_TEST_LOG"] != nil ? .debug : .critical
        let daemon = GoalDaemon(
            configuration: configuration,
            storage: storage,
            tlsContext: { try NIOSSLContext(configuration: certificates.serverTLSConfiguration) },
            metricsRegistry: registry,
            logger: logger,
            parts: seams.parts(for: storage)
        )
        let runTask = Task<Result<Void, any Error>, Never> {
            do {
                try await daemon.run()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        do {
            let addresses = try await daemon.listeningAddresses()
            return TestDaemon(
                daemon: daemon,
                storage: storage,
                port: addresses.port,
                tokens: tokens,
                registry: registry,
                runTask: runTask
            )
        } catch {
            daemon.stop()
            _ = await runTask.value
            throw error
        }
    }

    /// Stops the daemon gracefully and returns how `run()` ended.
    @discardableResult
    public func stop() async -> Result<Void, any Error> {
        daemon.stop()
        return await runTask.value
    }

    /// Waits for `run()` to end by itself (a fatal error) and returns how it ended.
    public func waitUntilFinished() async -> Result<Void, any Error> {
        await runTask.value
    }

    /// The Prometheus text of the daemon's metrics.
    public func metricsText() -> String {
        registry.emitToString()
    }

    /// The value of one unlabelled counter or gauge in the daemon's metrics (0 when it has none yet).
    public func metric(_ name: String) -> Int {
        for line in metricsText().split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(Double(line.split(separator: " ").last ?? "") ?? 0)
        }
        return 0
    }

    /// Waits until the metric `name` reaches `value`: polls the daemon's own registry (a state, not a time), and
    /// gives up after `timeout` with `PollTimeout` (the value it saw last in its description).
    public func waitForMetric(_ name: String, atLeast value: Int, timeout: Duration = .seconds(20)) async throws {
        let seen = { "seen \(self.metric(name))" }
        try await pollUntil("\(name) ≥ \(value)", timeout: timeout, detail: seen) { metric(name) >= value }
    }

    /// A connector to this daemon trusting the test CA.
    public func connector(path: String = ServerEndpoint.defaultPath) throws -> TestTLSConnector {
        try TestTLSConnector(port: port, path: path, security: .caPEM(TestCertificates.shared.caPEM))
    }
}

/// Runs `body` with a started daemon and always stops it.
public func withTestDaemon<T>(
    storage: any LeagueStorage = InMemoryLeagueStorage(),
    limits: ServerLimits = ServerLimits(),
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestDaemon) async throws -> T
) async throws -> T {
    try await withTestDaemon(storage: storage, limits: limits, seams: .none, configure: configure, body)
}

/// Runs `body` with a started daemon whose parts differ from production's by `seams`, and always stops it.
public func withTestDaemon<T>(
    storage: any LeagueStorage = InMemoryLeagueStorage(),
    limits: ServerLimits = ServerLimits(),
    seams: DaemonSeams,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestDaemon) async throws -> T
) async throws -> T {
    let daemon = try await TestDaemon.start(storage: storage, limits: limits, seams: seams, configure: configure)
    do {
        let result = try await body(daemon)
        await daemon.stop()
        return result
    } catch {
        await daemon.stop()
        throw error
    }
}
