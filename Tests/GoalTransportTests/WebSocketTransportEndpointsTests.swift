import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import Testing

/// `WebSocketTransport(endpoints:)`: the nodes of one league in failover order; `connect(server:events:)` opens a
/// connection to the one at that index (wrapping around), `connect(events:)` to the first.
@Suite("WebSocketTransport: several endpoints", .slotted)
struct WebSocketTransportEndpointsTests {
    @Test("connect(server:) reaches the endpoint at that index; the first is down, the second answers")
    func eachIndexReachesItsEndpoint() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let refused = closed.port
        try await Harness.withServer { server in
            let transport = try WebSocketTransport(
                endpoints: [
                    ServerEndpoint(host: "127.0.0.1", port: refused),
                    ServerEndpoint(host: "127.0.0.1", port: server.port),
                ],
                security: .caPEM(TestCertificates.shared.caPEM)
            )
            #expect(transport.endpoint.port == refused, "the first endpoint is the default one")
            for index in [0, 2] {
                let events = TestInbox<TransportEvent>()
                _ = transport.connect(server: index) { events.push($0) }
                #expect(try await events.next().failure?.kind == .cannotConnect, "index \(index): the refused port")
            }
            for index in [1, 3] {
                let events = TestInbox<TransportEvent>()
                let connection = transport.connect(server: index) { events.push($0) }
                #expect(try await events.next() == .connected, "index \(index): the live server")
                connection.close(code: 1000)
            }
            let events = TestInbox<TransportEvent>()
            _ = transport.connect { events.push($0) }
            #expect(try await events.next().failure?.kind == .cannotConnect, "connect(events:) goes to the first")
        }
    }

    @Test("an empty list is refused")
    func noEndpoints() {
        #expect(throws: TransportFailure.self) {
            try WebSocketTransport(endpoints: [], security: .caPEM(TestCertificates.shared.caPEM))
        }
    }
}
