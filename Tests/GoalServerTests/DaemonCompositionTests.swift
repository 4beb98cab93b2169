import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Prometheus
import ServiceLifecycle
import Testing

@testable import GoalServer

/// The composition root's inputs and services, without a daemon: what production's parts are, and how the
/// presence service ends (graceful: goodbye last; cancelled, as a failed daemon cancels its group: no goodbye).
@Suite("the daemon's composition root: production parts, services' shutdown", .slotted)
struct DaemonCompositionTests {
    /// A store that is also a presence bus, as PostgreSQL's is.
    struct BusStore: ForwardingLeagueStorage, PresenceBus {
        let base: any LeagueStorage = InMemoryLeagueStorage()
        let bus = InProcessPresenceBus()

        func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) { bus.listenPresence(receive) }
        func publishPresence(_ payload: String) { bus.publishPresence(payload) }
        func stopPresence() async { await bus.stopPresence() }
    }

    /// A bus that records what is published and says when someone listens.
    final class RecordingBus: PresenceBus {
        private let published = NIOLockedValueBox<[String]>([])
        private let stopped = NIOLockedValueBox(false)
        let listening: AsyncStream<Void>
        private let listened: AsyncStream<Void>.Continuation

        init() {
            (listening, listened) = AsyncStream.makeStream(of: Void.self)
        }

        var payloads: [PresenceRelayMessage] {
            // Every payload is one the registry encoded: none fails to decode.
            published.withLockedValue { $0 }.compactMap { try? PresenceRelayMessage.decode($0) }
        }

        var isStopped: Bool { stopped.withLockedValue { $0 } }

        func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) { listened.yield() }
        func publishPresence(_ payload: String) { published.withLockedValue { $0.append(payload) } }
        func stopPresence() async { stopped.withLockedValue { $0 = true } }
    }

    static func registry(bus: any PresenceBus) -> PresenceRegistry {
        PresenceRegistry(
            node: "node-0",
            hub: Hub(
                eventLoops: [NIOAsyncTestingEventLoop()],
                head: 0,
                headDigest: .genesis,
                coalescePause: .zero,
                metrics: ServerMetrics(registry: PrometheusCollectorRegistry())
            ),
            configuration: PresenceConfiguration(refreshMilliseconds: 60_000, nodeTimeoutMilliseconds: 180_000),
            bus: bus,
            logger: Logger(label: "test.presence", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    @Test("production parts: the wall clock, the store's own presence bus, no slice gate, following other nodes")
    func productionParts() {
        let store = BusStore()
        let before = Timestamp.now()
        let parts = DaemonParts(storage: store)
        let now = parts.clock()
        #expect(now >= before && now <= Timestamp.now())
        #expect(parts.presenceBus is BusStore)
        #expect(parts.sliceGate == nil)
        #expect(parts.followsOtherNodes)
        #expect(DaemonParts(storage: InMemoryLeagueStorage()).presenceBus == nil, "a store that is no bus: none")
    }

    @Test("a graceful shutdown of the group ends presence with its goodbye, the last payload, and stops the bus")
    func gracefulShutdownSaysGoodbye() async throws {
        let bus = RecordingBus()
        let group = ServiceGroup(
            services: [PresenceService(registry: Self.registry(bus: bus))],
            logger: Logger(label: "test.group", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in bus.listening { break }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(bus.payloads.last == .bye(node: "node-0"))
        #expect(bus.isStopped)
    }

    @Test("a cancelled group (the daemon failed) ends presence without a goodbye; the other nodes time it out")
    func cancellationSaysNothing() async throws {
        let bus = RecordingBus()
        let group = ServiceGroup(
            services: [PresenceService(registry: Self.registry(bus: bus))],
            logger: Logger(label: "test.group", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let run = Task { try await group.run() }
        for await _ in bus.listening { break }
        run.cancel()
        _ = await run.result
        #expect(!bus.payloads.contains(.bye(node: "node-0")))
        #expect(!bus.isStopped)
    }
}
