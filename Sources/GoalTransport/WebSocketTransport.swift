public import GoalClient
public import Logging
import NIOConcurrencyHelpers
public import NIOCore
public import NIOPosix

/// The live `Transport`: RFC 6455 WebSocket connections over TLS to goald, built on SwiftNIO.
///
/// It knows one server, or several (`endpoints`, the nodes of one league in failover order): `connect(server:events:)`
/// opens a connection to `endpoints[server]` (the index wraps around), `connect(events:)` to the first. All of
/// them are trusted by the same `security`.
///
/// Each `connect` opens one independent connection on an event loop of the shared group; the TLS context (trust
/// roots, pinned fingerprint) is built once, here. A connection costs a channel, its handlers and one small state
/// object: no task or thread per connection or per frame, so one transport can hold thousands (goal-load).
///
/// Threading: immutable and `Sendable`; `connect` may be called from any thread, concurrently. Each connection's
/// events are delivered on its event loop: keep the callback short (hop elsewhere for real work), since other
/// connections share that loop. Lifetime: the
/// transport owns no connection; each connection lives until its terminal event. The event loop group must outlive
/// the connections (the default, `MultiThreadedEventLoopGroup.singleton`, always does).
public final class WebSocketTransport: Transport {
    /// The servers, in failover order (never empty).
    public let endpoints: [ServerEndpoint]
    /// The first server: where `connect(events:)` goes.
    public var endpoint: ServerEndpoint { endpoints[0] }
    /// How the server's certificate is trusted.
    public var security: TransportSecurity { tls.security }
    /// The local address connections bind before connecting, if any.
    public let localAddress: SocketAddress?
    /// Timeouts and limits.
    public let configuration: WebSocketTransportConfiguration
    private let tls: ClientTLSContext
    private let group: any EventLoopGroup
    private let logger: Logger

    /// Makes a transport to one server; builds the TLS context once (reading the CA file, if any).
    ///
    /// - Parameters:
    ///   - endpoint: The server, for example `try ServerEndpoint(parsing: "wss://localhost:7443")`.
    ///   - security: How the server's certificate is trusted; `.insecure` logs a warning.
    ///   - group: The event loops connections run on. Default: the process-wide singleton.
    ///   - localAddress: A local address to bind before connecting. Default: the system chooses.
    ///   - configuration: Timeouts and limits. Default: `.default`.
    ///   - logger: Receives debug records per connection and the insecure-mode warning.
    /// - Throws: `TransportFailure(.tls, …)` when the trust material cannot be read.
    public convenience init(
        endpoint: ServerEndpoint,
        security: TransportSecurity,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        localAddress: SocketAddress? = nil,
        configuration: WebSocketTransportConfiguration = .default,
        logger: Logger = Logger(label: "goal.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(TransportFailure) {
        try self.init(
            endpoints: [endpoint],
            security: security,
            group: group,
            localAddress: localAddress,
            configuration: configuration,
            logger: logger
        )
    }

    /// Makes a transport to several servers (the nodes of one league, in failover order); builds the TLS context
    /// once (reading the CA file, if any).
    ///
    /// - Parameters:
    ///   - endpoints: The servers; an empty list is refused.
    ///   - security: How the server's certificate is trusted; `.insecure` logs a warning.
    ///   - group: The event loops connections run on. Default: the process-wide singleton.
    ///   - localAddress: A local address to bind before connecting (goal-load spreads connections over
    ///     127.0.0.0/8); it must be of the same family as the server's address. Default: the system chooses.
    ///   - configuration: Timeouts and limits. Default: `.default`.
    ///   - logger: Receives debug records per connection and the insecure-mode warning.
    /// - Throws: `TransportFailure(.tls, …)` when the trust material cannot be read, `.cannotConnect` when
    ///   `endpoints` is empty.
    public init(
        endpoints: [ServerEndpoint],
        security: TransportSecurity,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        localAddress: SocketAddress? = nil,
        configuration: WebSocketTransportConfiguration = .default,
        logger: Logger = Logger(label: "goal.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(TransportFailure) {
        guard !endpoints.isEmpty else { throw TransportFailure(.cannotConnect, "no server to connect to") }
        self.endpoints = endpoints
        self.localAddress = localAddress
        self.configuration = configuration
        self.group = group
        self.logger = logger
        self.tls = try ClientTLSContext(security: security, logger: logger)
    }

    /// Opens one connection (see `Transport.connect`).
    ///
    /// - Parameter events: Receives every event of the connection, in order, on its event loop.
    /// - Returns: The connection; sends before `.connected` are queued.
    public func connect(events: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        openConnection(localAddress: localAddress, events: events)
    }

    /// Opens one connection to `endpoints[server]` (the index wraps around; see `Transport.connect(server:events:)`).
    ///
    /// - Parameters:
    ///   - server: The index of the server in `endpoints`.
    ///   - events: Receives every event of the connection, in order, on its event loop.
    /// - Returns: The connection; sends before `.connected` are queued.
    public func connect(
        server: Int,
        events: @escaping @Sendable (TransportEvent) -> Void
    ) -> any TransportConnection {
        openConnection(localAddress: localAddress, server: server, events: events)
    }

    /// Opens one connection bound to a specific local address (overriding the transport's).
    ///
    /// - Parameters:
    ///   - localAddress: The local address to bind, or nil to let the system choose.
    ///   - server: The index of the server in `endpoints` (wrapping around); default the first.
    ///   - events: Receives every event of the connection, in order, on its event loop.
    /// - Returns: The connection; sends before `.connected` are queued.
    public func openConnection(
        localAddress: SocketAddress?,
        server: Int = 0,
        events: @escaping @Sendable (TransportEvent) -> Void
    ) -> WebSocketConnection {
        let endpoint = endpoints[((server % endpoints.count) + endpoints.count) % endpoints.count]
        let eventLoop = group.next()
        let mailbox = NIOLockedValueBox(OutboundMailbox())
        let core = ConnectionCore(
            eventLoop: eventLoop,
            endpoint: endpoint,
            configuration: configuration,
            tls: tls,
            localAddress: localAddress,
            mailbox: mailbox,
            logger: logger,
            events: events
        )
        let connection = WebSocketConnection(eventLoop: eventLoop, mailbox: mailbox, core: core)
        connection.start()
        return connection
    }
}
