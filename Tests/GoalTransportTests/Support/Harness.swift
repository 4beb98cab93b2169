import GoalClient
import GoalTestSupport
import GoalTransport
import NIOCore
import NIOPosix

/// Shared set-up for transport tests: a scripted server, a transport trusting the test CA, and event inboxes.
enum Harness {
    /// Runs `body` with a fresh server and shuts the server down afterwards, on success and on error.
    static func withServer(
        host: String = "127.0.0.1",
        _ body: (TestWebSocketServer) async throws -> Void
    ) async throws {
        let server = try await TestWebSocketServer.start(host: host)
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// A transport to the server's port that trusts the shared test CA (unless told otherwise).
    static func transport(
        port: Int,
        host: String = "127.0.0.1",
        path: String = ServerEndpoint.defaultPath,
        security: TransportSecurity = .caPEM(TestCertificates.shared.caPEM),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        localAddress: SocketAddress? = nil,
        configuration: WebSocketTransportConfiguration = .default
    ) throws -> WebSocketTransport {
        try WebSocketTransport(
            endpoint: ServerEndpoint(host: host, port: port, path: path),
            security: security,
            group: group,
            localAddress: localAddress,
            configuration: configuration
        )
    }

    /// Opens a connection whose events go to a fresh inbox.
    static func connect(_ transport: some Transport) -> (any TransportConnection, TestInbox<TransportEvent>) {
        let events = TestInbox<TransportEvent>()
        let connection = transport.connect { events.push($0) }
        return (connection, events)
    }
}

extension TransportEvent {
    /// The text of a `.message`, nil otherwise.
    var text: String? {
        if case .message(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    /// The failure of a `.failed`, nil otherwise.
    var failure: TransportFailure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    /// True for `.closed` and `.failed`.
    var isTerminal: Bool {
        switch self {
        case .closed, .failed: true
        case .connected, .message, .pong: false
        }
    }
}

extension Array where Element == UInt8 {
    init(text: String) { self = Array(text.utf8) }
}
