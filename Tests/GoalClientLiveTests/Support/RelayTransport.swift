import Dispatch
import GoalClient
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization

/// A `Transport` for live tests that stands between a `GoalClient` and the real `WebSocketTransport` to a
/// `TestDaemon`: it can point at another port (a restarted daemon), cut the network (`partition()` drops every
/// open connection as a lost TCP connection would, and refuses new ones until `heal()`), lose the next `ack`
/// (`loseNextAck()`: the ack is swallowed and its connection dropped), and it counts what went through.
///
/// Threading: `Sendable`; every method may be called from any thread. State is in a `Mutex`; events reach the
/// client under its connection's own lock, so a synthetic drop never interleaves with a real event.
/// Lifetime: lives as long as the test's client.
final class RelayTransport: Transport {
    private struct State {
        var target: WebSocketTransport
        var partitioned = false
        var loseNextAck = false
        var open: [ObjectIdentifier: RelayConnection] = [:]
        var inbound: [String: Int] = [:]
        var sentMutations: [UInt64: Int] = [:]
    }

    private let state: Mutex<State>

    /// - Parameter port: The daemon's port on 127.0.0.1.
    init(port: Int) throws {
        state = Mutex(State(target: try RelayTransport.webSocketTransport(port: port)))
    }

    /// The real transport to a daemon on 127.0.0.1, trusting the test CA.
    static func webSocketTransport(port: Int) throws -> WebSocketTransport {
        try WebSocketTransport(
            endpoint: ServerEndpoint(host: "127.0.0.1", port: port, path: "/v1/stream"),
            security: .caPEM(TestCertificates.shared.caPEM)
        )
    }

    /// New connections go to `port` from now on.
    func retarget(port: Int) throws {
        let transport = try RelayTransport.webSocketTransport(port: port)
        state.withLock { $0.target = transport }
    }

    /// Drops every open connection (the client sees `.closed` without a code) and fails new ones.
    func partition() {
        let open = state.withLock { state in
            state.partitioned = true
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for connection in open { connection.drop(reason: "network partition (test)") }
    }

    /// Fails new connections (as `partition()` does) but leaves the open ones to end on their own, e.g. with
    /// the 1001 of a daemon that is stopping.
    func refuseNewConnections() {
        state.withLock { $0.partitioned = true }
    }

    /// Lets connections through again.
    func heal() {
        state.withLock { $0.partitioned = false }
    }

    /// The next `ack` from the server is not delivered; its connection is dropped instead.
    func loseNextAck() {
        state.withLock { $0.loseNextAck = true }
    }

    /// How many server messages of this `type` ("snapshot_chunk", "changeset", …) reached the client.
    func inboundCount(_ type: String) -> Int {
        state.withLock { $0.inbound[type, default: 0] }
    }

    /// How many times the client sent the mutation with this seq.
    func sendCount(seq: UInt64) -> Int {
        state.withLock { $0.sentMutations[seq, default: 0] }
    }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let (target, partitioned) = state.withLock { ($0.target, $0.partitioned) }
        let relay = RelayConnection(owner: self, events: events)
        if partitioned {
            DispatchQueue.global().async {
                relay.deliver(.failed(TransportFailure(.cannotConnect, "network partition (test)")))
            }
            return relay
        }
        state.withLock { $0.open[ObjectIdentifier(relay)] = relay }
        relay.attach(target.connect { [weak relay] event in relay?.receive(event) })
        return relay
    }

    /// Decides what to do with one inbound event: counts messages and reports whether to drop the connection
    /// instead of delivering it.
    fileprivate func filter(_ event: TransportEvent, of connection: RelayConnection) -> Bool {
        guard case .message(let bytes) = event else {
            if case .closed = event { forget(connection) }
            if case .failed = event { forget(connection) }
            return false
        }
        let message = try? ServerMessage.decode(bytes)
        return state.withLock { state in
            guard let message else { return false }
            if case .ack = message, state.loseNextAck {
                state.loseNextAck = false
                state.inbound["lost_ack", default: 0] += 1
                return true
            }
            state.inbound[message.type, default: 0] += 1
            return false
        }
    }

    fileprivate func sent(_ bytes: [UInt8]) {
        guard case .mutate(let mutate)? = try? ClientMessage.decode(bytes) else { return }
        state.withLock { $0.sentMutations[mutate.seq, default: 0] += 1 }
    }

    fileprivate func forget(_ connection: RelayConnection) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(connection)) }
    }
}

/// One relayed connection: forwards to the real one until it is dropped, then delivers nothing more.
///
/// Threading: `Sendable`; `Mutex`-guarded; the client's event callback runs with the lock held so events stay
/// in order and never overlap (the callback only hops onto the client's scheduler).
private final class RelayConnection: TransportConnection {
    private struct State {
        var inner: (any TransportConnection)?
        var finished = false
    }

    private let owner: RelayTransport
    private let events: @Sendable (TransportEvent) -> Void
    private let state = Mutex(State())

    init(owner: RelayTransport, events: @escaping @Sendable (TransportEvent) -> Void) {
        self.owner = owner
        self.events = events
    }

    func attach(_ inner: any TransportConnection) {
        state.withLock { $0.inner = inner }
    }

    func receive(_ event: TransportEvent) {
        if owner.filter(event, of: self) {
            drop(reason: "the ack was lost (test)")
            return
        }
        deliver(event)
    }

    /// Delivers an event unless the connection already ended.
    func deliver(_ event: TransportEvent) {
        state.withLock { state in
            guard !state.finished else { return }
            switch event {
            case .closed, .failed: state.finished = true
            case .connected, .message, .pong: break
            }
            events(event)
        }
    }

    /// Ends the connection as a dropped TCP connection would: the client sees `.closed(code: nil)`.
    func drop(reason: String) {
        let inner = state.withLock { state -> (any TransportConnection)? in
            guard !state.finished else { return nil }
            state.finished = true
            events(.closed(code: nil, reason: reason))
            return state.inner
        }
        owner.forget(self)
        inner?.close(code: CloseCode.goingAway.rawValue)
    }

    func send(_ message: [UInt8]) {
        guard let inner = state.withLock({ $0.finished ? nil : $0.inner }) else { return }
        owner.sent(message)
        inner.send(message)
    }

    func ping() {
        state.withLock { $0.finished ? nil : $0.inner }?.ping()
    }

    func close(code: UInt16) {
        state.withLock { $0.inner }?.close(code: code)
    }
}
