/// How a `GoalClient` reaches a goald: it opens WebSocket connections that carry GoalWire JSON text messages.
///
/// A transport may reach several servers, the nodes of one league in failover order (`ClientConfiguration.servers`):
/// `connect(server:events:)` opens a connection to one of them by its index in that list. A transport of one
/// server only implements `connect(events:)`; the default `connect(server:events:)` ignores the index.
///
/// GoalClient never imports NIO; the live implementation is `GoalTransport.WebSocketTransport`, and tests use a
/// fake that scripts the server's side. Threading: conformers are `Sendable`; `connect` may be called from any
/// thread. Lifetime: each call opens one independent connection; the transport itself holds no per-connection
/// state the client relies on.
public protocol Transport: Sendable {
    /// Starts opening one connection.
    ///
    /// - Parameter events: Receives every event of this connection, in order, exactly once each, on an arbitrary
    ///   thread (never concurrently with itself). The last event is always `.closed` or `.failed`.
    /// - Returns: The connection, usable at once: messages sent before `.connected` are queued and sent after it.
    func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection

    /// Starts opening one connection to server `server` (an index into the client's list of servers, in
    /// `0..<ClientConfiguration.servers.count`); otherwise exactly like `connect(events:)`.
    func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection
}

extension Transport {
    /// One server only: every index opens a connection to it.
    public func connect(server: Int, events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        connect(events: events)
    }
}

/// One open (or opening) WebSocket connection.
///
/// Threading: every method may be called from any thread. Lifetime: after `close` or after the connection's
/// `.closed`/`.failed` event, sends are silently dropped.
public protocol TransportConnection: AnyObject, Sendable {
    /// Sends one complete text message (a GoalWire JSON message).
    func send(_ message: [UInt8])
    /// Sends a WebSocket ping; the peer's pong arrives as `TransportEvent.pong`.
    func ping()
    /// Starts a clean close with the given WebSocket close code; `.closed` follows.
    func close(code: UInt16)
}

/// What happens on a connection, in order: `.connected`, then any number of `.message` / `.pong`, then one
/// `.closed` or `.failed` (a connection that never opened goes straight to `.failed`).
public enum TransportEvent: Sendable, Equatable {
    /// TLS and the WebSocket upgrade completed; the client sends `hello` now.
    case connected
    /// One complete inbound text message (fragments already joined).
    case message([UInt8])
    /// The answer to `ping()`; any inbound frame also proves the peer alive.
    case pong
    /// The connection ended after it opened: `code` is the peer's close code, nil when it dropped without one.
    case closed(code: UInt16?, reason: String)
    /// The connection could not be opened.
    case failed(TransportFailure)
}

/// Why a connection could not be opened, precise enough for goal-client's exit codes (3: cannot connect or TLS).
///
/// Value type, `Sendable`.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable, Equatable {
        /// DNS, refused, unreachable, reset before the upgrade.
        case cannotConnect = "cannot_connect"
        /// The TLS handshake failed (untrusted certificate, fingerprint mismatch, protocol error).
        case tls
        /// The HTTP upgrade was refused (the status is in `message`).
        case upgradeRejected = "upgrade_rejected"
        /// Connecting took longer than the transport's connect timeout.
        case timeout
    }

    public var kind: Kind
    /// What went wrong, for a person.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
