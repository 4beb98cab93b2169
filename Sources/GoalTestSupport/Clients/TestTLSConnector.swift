public import GoalClient
public import GoalTransport
public import NIOCore
public import NIOPosix

/// Opens a TLS connection the way `WebSocketTransport` does (same `ClientTLSContext`, same failure messages) and
/// lets the caller add the handlers that sit on top. Shared by the raw test clients.
///
/// Value type, `Sendable`. Thread-safe: each `connect` makes its own channel.
public struct TestTLSConnector: Sendable {
    /// The server.
    public var endpoint: ServerEndpoint
    /// The TLS context (trust) used for every connection.
    public let tls: ClientTLSContext
    /// The event loops connections run on.
    public var group: any EventLoopGroup
    /// The socket's receive buffer (SO_RCVBUF) in bytes; nil keeps the system default.
    public var receiveBufferSize: Int?

    /// Makes a connector.
    ///
    /// - Parameters:
    ///   - host: Host name or IP literal. Default 127.0.0.1.
    ///   - port: The server's port.
    ///   - path: The request path used by WebSocket and HTTP clients. Default `/v1/stream`.
    ///   - security: How the server's certificate is trusted, usually `.caPEM(TestCertificates.shared.caPEM)`.
    ///   - group: Event loops. Default: the process-wide singleton.
    /// - Throws: `TransportFailure(.tls, …)` when the trust material is unusable.
    public init(
        host: String = "127.0.0.1",
        port: Int,
        path: String = ServerEndpoint.defaultPath,
        security: TransportSecurity,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws(TransportFailure) {
        self.endpoint = ServerEndpoint(host: host, port: port, path: path)
        self.tls = try ClientTLSContext(security: security)
        self.group = group
    }

    /// Connects over TCP and adds the TLS handler plus whatever `configure` adds, on the channel's event loop.
    ///
    /// - Parameter configure: Adds the handlers above TLS; receives the TLS observer for failure messages.
    /// - Returns: The connected channel (the TLS handshake may still be running).
    /// - Throws: `TransportFailure` (`.cannotConnect`, `.timeout`) when TCP cannot connect.
    public func connect(
        configure: @escaping @Sendable (any Channel, TLSHandshakeObserver) throws -> Void
    ) async throws -> any Channel {
        let endpoint = self.endpoint
        let tls = self.tls
        var bootstrap = ClientBootstrap(group: group)
        if let receiveBufferSize {
            // Set before connecting so the TCP window is small from the start (slow-consumer tests).
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBufferSize))
        }
        let future =
            bootstrap
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let observer = TLSHandshakeObserver()
                    try channel.pipeline.syncOperations.addHandler(tls.makeHandler(for: endpoint, observer: observer))
                    try configure(channel, observer)
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
        do {
            return try await future.get()
        } catch {
            throw FailureClassifier.failure(for: error, endpoint: endpoint, security: tls.security, observer: nil)
        }
    }

    /// Classifies an error seen on a connection this connector made.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - observer: The connection's TLS observer.
    /// - Returns: The failure a `WebSocketTransport` would report.
    public func failure(for error: any Error, observer: TLSHandshakeObserver?) -> TransportFailure {
        FailureClassifier.failure(for: error, endpoint: endpoint, security: tls.security, observer: observer)
    }
}
