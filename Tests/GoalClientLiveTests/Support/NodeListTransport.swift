import Dispatch
import GoalClient
import GoalTestSupport
import GoalTransport
import GoalWire
import Synchronization

/// A `Transport` over several test daemons on 127.0.0.1, one per server index, whose ports may be filled in after
/// the client started (a node that starts later); a server without a port (or beyond the list) refuses the
/// connection. Every server
/// message that passes is recorded with the index of the server it came from.
///
/// Threading: `Sendable`; every method may be called from any thread; state is in a `Mutex`. Lifetime: as long as
/// the test's client.
final class NodeListTransport: Transport {
    private struct State {
        var targets: [WebSocketTransport?]
        var received: [(server: Int, message: ServerMessage)] = []
        var servers: [Int] = []
    }

    private let state: Mutex<State>

    /// - Parameter ports: One entry per server; nil for a server not started yet.
    init(ports: [Int?]) throws {
        state = Mutex(State(targets: try ports.map { try $0.map(RelayTransport.webSocketTransport(port:)) }))
    }

    /// Server `index` is the daemon on `port` from now on.
    func setPort(_ port: Int, for index: Int) throws {
        let transport = try RelayTransport.webSocketTransport(port: port)
        state.withLock { $0.targets[index] = transport }
    }

    /// Every server message relayed, with its server, in order.
    var received: [(server: Int, message: ServerMessage)] { state.withLock { $0.received } }

    /// The server index of every connection opened, in order.
    var servers: [Int] { state.withLock { $0.servers } }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        connect(server: 0, events: events)
    }

    func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let target = state.withLock { state -> WebSocketTransport? in
            state.servers.append(server)
            return state.targets.indices.contains(server) ? state.targets[server] : nil
        }
        guard let target else {
            let refused = RefusedConnection()
            DispatchQueue.global().async {
                events(.failed(TransportFailure(.cannotConnect, "server \(server) is not started (test)")))
            }
            return refused
        }
        return target.connect { [self] event in
            if case .message(let bytes) = event {
                let message = try? ServerMessage.decode(bytes)  // an undecodable message is not recorded
                if let message { state.withLock { $0.received.append((server, message)) } }
            }
            events(event)
        }
    }
}

/// The connection of a server that is not there: everything sent is dropped.
private final class RefusedConnection: TransportConnection {
    func send(_ message: [UInt8]) {}
    func ping() {}
    func close(code: UInt16) {}
}
