import Foundation
import GoalClient
import GoalModel
import GoalWire

/// A scripted transport: tests play the server by delivering events on each connection the client opens, and
/// read back what the client sent. Thread-safe (`lock`), so it can be `Sendable`.
final class FakeTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var _connections: [FakeConnection] = []

    var connections: [FakeConnection] { lock.withLock { _connections } }
    var last: FakeConnection { connections.last! }

    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        connect(server: 0, events: events)
    }

    func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let connection = FakeConnection(events: events, server: server)
        lock.withLock { _connections.append(connection) }
        return connection
    }
}

/// One fake connection: records sends, pings and closes; `deliver` plays an event from the server side.
final class FakeConnection: TransportConnection, @unchecked Sendable {
    private let lock = NSLock()
    private let events: @Sendable (TransportEvent) -> Void
    private var _sent: [ClientMessage] = []
    private var _sentBytes: [[UInt8]] = []
    private var _pings = 0
    private var _closeCodes: [UInt16] = []
    /// The index of the server the client asked for (`Transport.connect(server:events:)`).
    let server: Int

    init(events: @escaping @Sendable (TransportEvent) -> Void, server: Int = 0) {
        self.events = events
        self.server = server
    }

    var sent: [ClientMessage] { lock.withLock { _sent } }
    /// Every message as the client sent it (for byte-for-byte checks).
    var sentBytes: [[UInt8]] { lock.withLock { _sentBytes } }
    var pings: Int { lock.withLock { _pings } }
    var closeCodes: [UInt16] { lock.withLock { _closeCodes } }

    /// The seqs of every `mutate` sent, in order.
    var sentSeqs: [UInt64] {
        sent.compactMap {
            if case .mutate(let mutate) = $0 { return mutate.seq }
            return nil
        }
    }

    func send(_ message: [UInt8]) {
        let decoded = try! ClientMessage.decode(message)
        lock.withLock {
            _sent.append(decoded)
            _sentBytes.append(message)
        }
    }

    func ping() { lock.withLock { _pings += 1 } }

    func close(code: UInt16) { lock.withLock { _closeCodes.append(code) } }

    func deliver(_ event: TransportEvent) { events(event) }

    func deliver(_ message: ServerMessage) { events(.message(message.encoded())) }
}

/// Jitter units from a fixed list (then 0).
final class FixedJitter: JitterSource, @unchecked Sendable {
    private let lock = NSLock()
    private var units: [Double]

    init(_ units: [Double] = []) { self.units = units }

    func nextUnit() -> Double {
        lock.withLock { units.isEmpty ? 0 : units.removeFirst() }
    }
}
