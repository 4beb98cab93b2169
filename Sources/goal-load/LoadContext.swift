import GoalClient
import GoalModel
import GoalReactive
import GoalTransport
import GoalWire
import NIOCore
import NIOPosix
import Synchronization

/// What every connection of one run shares: the transport (to every node loaded), the token, the writers' send-time
/// tables, the latency recorder and the source-address plan.
///
/// Immutable after init except `running` (an atomic flag); `Sendable`. Lifetime: one per run.
final class LoadContext: Sendable {
    let transport: WebSocketTransport
    let token: String
    let sendTimes: SendTimeDirectory
    let latency: LatencyRecorder
    let addresses: SourceAddresses
    /// The protocol version subscribers ask for.
    let protocolVersion: Int
    /// The event loops the transport's connections run on.
    let group: any EventLoopGroup
    /// The clock and timers of every subscriber's and writer's `ResumeDriver` (its backoff waits): one serial queue
    /// for the run; the drivers' events run inline on the connections' event loops.
    let timers = QueueScheduler(name: "goal-load.reconnect")
    /// False once the run is shutting down: closed connections no longer reconnect.
    let running = Atomic<Bool>(true)

    init(
        transport: WebSocketTransport,
        token: String,
        sendTimes: SendTimeDirectory,
        latency: LatencyRecorder,
        addresses: SourceAddresses,
        protocolVersion: Int = WireProtocol.version,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.protocolVersion = protocolVersion
        self.group = group
        self.transport = transport
        self.token = token
        self.sendTimes = sendTimes
        self.latency = latency
        self.addresses = addresses
    }

    var isRunning: Bool { running.load(ordering: .relaxed) }

    /// How many nodes the run loads (`transport.endpoints`).
    var serverCount: Int { transport.endpoints.count }

    /// Opens a connection for connection slot `index` (subscribers first, then writers) to node `server` (an index
    /// into `transport.endpoints`), bound to its source address.
    func open(
        slot index: Int,
        server: Int = 0,
        events: @escaping @Sendable (TransportEvent) -> Void
    ) -> WebSocketConnection {
        transport.openConnection(localAddress: addresses.socketAddress(for: index), server: server, events: events)
    }
}
