import Foundation
import GoalClient
import GoalClientSQLite
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSupport
import Synchronization
import Testing

/// One "process" of a client with persisted state: a `GoalClient` over a `RelayTransport` to a test daemon, keeping
/// its state in a `SQLiteClientStateStore` file. A process restart is a new `PersistentClient` on the same file.
///
/// Threading: `@MainActor` (tests only). Lifetime: `end()` stops the client, waits until it saved, and lets go of
/// the instance slot.
@MainActor
final class PersistentClient {
    let relay: RelayTransport
    let store: SQLiteClientStateStore
    let client: GoalClient
    /// Every update the client published (recorded on the client's scheduler).
    let updates = Locked<[ReplicaUpdate]>([])

    init(path: String, port: Int, token: String) throws {
        relay = try RelayTransport(port: port)
        // Slot 0, waiting if need be: a process this test binary spawns (other suites run tmux and goal-client)
        // holds copies of our descriptors, and so a just-released lease, for the instant until it execs.
        store = try SQLiteClientStateStore.open(path: path, slots: 1, waitWhenBusy: true)
        client = try GoalClient(
            configuration: ClientConfiguration(
                token: token,
                serverName: "127.0.0.1:\(port)",
                backoff: BackoffPolicy(initial: 0.05, maximum: 0.25)
            ),
            transport: relay,
            scheduler: QueueScheduler(name: "goal.persistence-test"),
            stateStore: store,
            logger: LiveStack.logger
        )
        _ = client.updates.observeValues { [updates] update in updates.withLock { $0.append(update) } }
    }

    /// True when a snapshot replaced the replica since the client was made.
    var receivedSnapshot: Bool {
        updates.withLock { $0.contains { if case .snapshot = $0 { true } else { false } } }
    }

    /// Starts the client and waits until it is live.
    func connect() async throws {
        client.start()
        try await pollUntil("the client to be live") { client.status.value.isLive }
    }

    /// Submits a mutation and waits for its answer.
    func perform(_ action: MutationAction) async throws -> Result<MutationAck, MutationError> {
        try await Self.outcome(client.submit(action, base: client.replica.value.revision))
    }

    /// The answer a producer delivers (on any thread).
    static func outcome(
        _ producer: SignalProducer<MutationAck, MutationError>
    ) async throws -> Result<MutationAck, MutationError> {
        let answer = Locked<Result<MutationAck, MutationError>?>(nil)
        _ = producer.startWithResult { result in answer.withLock { $0 = result } }
        try await pollUntil("an answer") { answer.withLock { $0 != nil } }
        return try #require(answer.withLock { $0 })
    }

    /// Stops the client, waits until it saved its state, and releases the slot (the process ended).
    func end() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            client.stop { continuation.resume() }
        }
        store.close()
    }
}

/// A temporary directory for one test's state files.
func temporaryStateDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("goal-client-state-\(UUID().uuidString.lowercased())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
}

/// A value behind a `Mutex`, shareable by reference between the client's scheduler and the test.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}

/// Runs `body` (on the main actor) with a started daemon and always stops it.
@MainActor
func withMainActorDaemon(storage: any LeagueStorage, _ body: (TestDaemon) async throws -> Void) async throws {
    let daemon = try await TestDaemon.start(storage: storage)
    do {
        try await body(daemon)
        await daemon.stop()
    } catch {
        await daemon.stop()
        throw error
    }
}
