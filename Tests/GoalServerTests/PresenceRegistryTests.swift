import Foundation
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
import Testing

@testable import GoalServer

/// The registry's handling of other nodes, driven by hand: payloads as the bus delivers them, and a clock the test
/// moves, so a node's silence is judged without waiting and whatever the machine's load.
@Suite("PresenceRegistry: other nodes' lists, their silence, the goodbye", .slotted)
struct PresenceRegistryTests {
    static let configuration = PresenceConfiguration(refreshMilliseconds: 300, nodeTimeoutMilliseconds: 1_500)

    static func member(_ id: String, node: String = "node-1", _ activity: PresenceActivity = .online) -> PresenceMember
    {
        PresenceMember(
            id: "\(node)/\(id)",
            name: id,
            clientInstance: .random(),
            node: node,
            activity: activity,
            since: Timestamp(millisecondsSince1970: 0)
        )
    }

    static func registry(bus: (any PresenceBus)? = nil, clock: NIOLockedValueBox<NIODeadline>) -> PresenceRegistry {
        let hub = Hub(
            eventLoops: [NIOAsyncTestingEventLoop()],  // thread-safe: the registry is used from several threads
            head: 0,
            headDigest: .genesis,
            coalescePause: .zero,
            metrics: ServerMetrics(registry: PrometheusCollectorRegistry())
        )
        return PresenceRegistry(
            node: "node-0",
            hub: hub,
            configuration: configuration,
            bus: bus,
            logger: Logger(label: "test.presence", factory: { _ in SwiftLogNoOpLogHandler() }),
            now: { clock.withLockedValue { $0 } }
        )
    }

    static func refresh(_ generation: UInt64, _ members: [PresenceMember], from node: String = "node-1") -> String {
        PresenceRelayMessage.refreshPayloads(node: node, generation: generation, members: members, maxBytes: 7_000)[0]
    }

    @Test("a node is kept while heard from within the timeout, dropped after it, and back with its next refresh")
    func silenceAndReturn() {
        let clock = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(1_000_000_000))
        func advance(_ milliseconds: Int64) { clock.withLockedValue { $0 = $0 + .milliseconds(milliseconds) } }
        let registry = Self.registry(clock: clock)
        let ada = Self.member("ada")
        registry.receive(Self.refresh(1, [ada]))
        #expect(registry.members() == [ada])

        advance(1_400)
        registry.expire(now: clock.withLockedValue { $0 })
        #expect(registry.members() == [ada], "1.4 s of silence is within the 1.5 s timeout")

        var editing = ada
        editing.activity = .editing(MatchID())
        registry.receive(PresenceRelayMessage.event(node: "node-1", PresenceEvent(.update, editing)).encoded())
        advance(1_500)
        registry.expire(now: clock.withLockedValue { $0 })
        #expect(registry.members() == [editing], "any payload counts as heard from")

        advance(1)
        registry.expire(now: clock.withLockedValue { $0 })
        #expect(registry.members().isEmpty, "silent for longer than the timeout: dropped with its members")

        // A node that was only late (a starved machine) comes back whole with its next refresh.
        registry.receive(Self.refresh(2, [editing]))
        #expect(registry.members() == [editing])
    }

    @Test("a refresh under way when the node stops is published before the goodbye, and nothing after it")
    func goodbyeIsTheLastPayload() async throws {
        let bus = HoldingBus()
        let registry = Self.registry(bus: bus, clock: NIOLockedValueBox(.now()))
        registry.set(Self.member("ada", node: "node-0"))

        // Another node's sync makes this one send its list; the bus holds that refresh mid-publish, as a thread
        // that is not scheduled would.
        bus.holdNextRefresh()
        let answering = Thread { registry.receive(PresenceRelayMessage.sync(node: "node-1").encoded()) }
        answering.start()
        try await pollUntil("the refresh under way") { bus.isHolding }

        let stopping = Task { await registry.stop() }
        // The goodbye waits for the refresh, however long it is held (it went out at once, ahead of it, before the
        // fix); 200 ms is only how long this test gives it to overtake.
        try await Task.sleep(for: .milliseconds(200))
        #expect(!bus.kinds.contains("bye"), "the goodbye overtook the refresh under way: \(bus.kinds)")
        bus.release()
        await stopping.value

        registry.set(Self.member("bea", node: "node-0"))
        registry.leave("node-0/ada")
        registry.receive(PresenceRelayMessage.sync(node: "node-1").encoded())
        registry.receive(nil)
        #expect(bus.kinds == ["event", "refresh", "bye"], "nothing after the goodbye")
    }
}

/// A bus that records what is published (its kinds), and can hold the next refresh inside `publishPresence` until
/// released. Threading: `Sendable`, lock-protected; `publishPresence` blocks only the thread of a held refresh.
private final class HoldingBus: PresenceBus {
    private struct State {
        var kinds: [String] = []
        var holdRefresh = false
        var holding = false
    }

    private let state = NIOLockedValueBox(State())
    private let gate = DispatchSemaphore(value: 0)

    var kinds: [String] { state.withLockedValue { $0.kinds } }
    var isHolding: Bool { state.withLockedValue { $0.holding } }

    func holdNextRefresh() { state.withLockedValue { $0.holdRefresh = true } }

    func release() { gate.signal() }

    func listenPresence(_ receive: @escaping @Sendable (String?) -> Void) {}

    func publishPresence(_ payload: String) {
        let kind: String
        switch try? PresenceRelayMessage.decode(payload) {
        case .event: kind = "event"
        case .refresh: kind = "refresh"
        case .sync: kind = "sync"
        case .bye: kind = "bye"
        case nil: kind = "unreadable"
        }
        let holds = state.withLockedValue { state in
            guard kind == "refresh", state.holdRefresh else { return false }
            state.holdRefresh = false
            state.holding = true
            return true
        }
        if holds { gate.wait() }
        state.withLockedValue { state in
            state.holding = false
            state.kinds.append(kind)
        }
    }

    func stopPresence() async {}
}
