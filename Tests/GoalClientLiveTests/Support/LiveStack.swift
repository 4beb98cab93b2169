import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSupport
import GoalViewModels
import Logging
import Testing

/// One live client as an app builds it: a `GoalClient` on its own `QueueScheduler`, talking to a `TestDaemon`
/// over real TLS through a `RelayTransport`, mirrored onto the main queue by a `LiveLeagueStore` (the default
/// `MainScheduler` delivery), so `@MainActor` view models sit on top exactly as in goal-client.
///
/// Threading: `@MainActor`. Lifetime: call `stop()` at the end of the test (every test does, on every path).
@MainActor
final class LiveStack {
    let name: String
    let relay: RelayTransport
    let client: GoalClient
    let store: LiveLeagueStore

    /// - Parameters:
    ///   - daemon: The daemon to connect to.
    ///   - token: The token secret (`daemon.tokens.editor`, …).
    ///   - instance: The client instance id (mutation ids are (instance, seq)).
    init(_ daemon: TestDaemon, token: String, instance: String) throws {
        name = instance
        relay = try RelayTransport(port: daemon.port)
        client = GoalClient(
            configuration: ClientConfiguration(
                token: token,
                serverName: "127.0.0.1:\(daemon.port)",
                backoff: BackoffPolicy(initial: 0.05, maximum: 0.25)
            ),
            transport: relay,
            scheduler: QueueScheduler(name: "goal.live-test.\(instance)"),
            minter: InMemoryMutationIDMinter(instance: ClientInstanceID(instance)!),
            logger: LiveStack.logger
        )
        store = LiveLeagueStore(client: client)
    }

    /// Quiet unless GOALD_TEST_LOG is set (as for `TestDaemon`); never bootstraps the logging system.
    static let logger: Logger = {
        var logger = Logger(label: "goal.client.live-test")
        logger.logLevel = ProcessInfo.processInfo.environment["GOALD_TEST_LOG"] != nil ? .debug : .critical
        return logger
    }()

    /// Starts the client and waits until its store (on the main queue) is live.
    func connect() async throws {
        client.start()
        try await waitUntilLive()
    }

    func waitUntilLive() async throws {
        try await pollUntil("\(name) to be live") { store.status.value.isLive }
    }

    /// Waits until the store's replica (on the main queue) holds `revision`.
    func waitForRevision(_ revision: Revision) async throws {
        try await pollUntil("\(name) at revision \(revision)") { store.replica.value.revision >= revision }
    }

    /// A match list, activated and loaded; the recorder holds nothing yet.
    func loadedMatches() async throws -> (MatchesViewModel, Recorder<RowChanges>) {
        let viewModel = MatchesViewModel(store: store)
        let changes = Recorder(viewModel.contentChanges)
        viewModel.active.value = true
        try await pollUntil("\(name)'s match list to load") { !changes.values.isEmpty && !viewModel.isLoading.value }
        _ = changes.take()
        return (viewModel, changes)
    }

    func stop() {
        client.stop()
    }
}

/// A daemon and the live stacks of one test. `withLiveHarness` stops every stack and the daemon on success and
/// failure alike.
///
/// Threading: `@MainActor`. Lifetime: one test.
@MainActor
final class LiveHarness {
    /// The running daemon (nil between `stopDaemon` and `startDaemon`).
    private(set) var daemon: TestDaemon?
    private var stacks: [LiveStack] = []

    init(daemon: TestDaemon) {
        self.daemon = daemon
    }

    /// The running daemon; fails the test when there is none.
    func running() throws -> TestDaemon {
        try #require(daemon, "no daemon is running")
    }

    /// A stack for `token`, not started.
    func stack(token: String, instance: String) throws -> LiveStack {
        let stack = try LiveStack(try running(), token: token, instance: instance)
        stacks.append(stack)
        return stack
    }

    /// A stack for `token`, live.
    func connectedStack(token: String, instance: String) async throws -> LiveStack {
        let stack = try stack(token: token, instance: instance)
        try await stack.connect()
        return stack
    }

    /// Stops the daemon (gracefully: its sessions are closed with 1001); stacks start reconnecting, and every
    /// attempt fails as a refused connection until `startDaemon`.
    ///
    /// The relays refuse new connections rather than dial the old port: once it is free, another test's
    /// daemon (same test CA, same token secrets) may bind it, and a stack would sync with that league instead.
    func stopDaemon() async {
        guard let daemon else { return }
        self.daemon = nil
        for stack in stacks { stack.relay.refuseNewConnections() }
        await daemon.stop()
    }

    /// Starts a daemon over `storage` (after `stopDaemon`) and points every stack at it.
    func startDaemon(storage: any LeagueStorage) async throws -> TestDaemon {
        let daemon = try await TestDaemon.start(storage: storage)
        self.daemon = daemon
        for stack in stacks {
            try stack.relay.retarget(port: daemon.port)
            stack.relay.heal()
        }
        return daemon
    }

    func shutdown() async {
        for stack in stacks { stack.stop() }
        await stopDaemon()
    }
}

/// Runs `body` with a daemon over `storage`; stops every stack and the daemon on success and failure alike.
@MainActor
func withLiveHarness<T>(
    storage: any LeagueStorage,
    _ body: (LiveHarness) async throws -> T
) async throws -> T {
    let harness = LiveHarness(daemon: try await TestDaemon.start(storage: storage))
    do {
        let result = try await body(harness)
        await harness.shutdown()
        return result
    } catch {
        await harness.shutdown()
        throw error
    }
}
