import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOHTTP1
import NIOWebSocket
import Testing

@Suite("GoalTestSupport raw clients against the test server", .slotted)
struct TestWebSocketClientTests {
    private func connector(_ server: TestWebSocketServer, path: String = "/v1/stream") throws -> TestTLSConnector {
        try TestTLSConnector(port: server.port, path: path, security: .caPEM(TestCertificates.shared.caPEM))
    }

    @Test("text round trip, fragments sent by hand, and a client-initiated close")
    func roundTrip() async throws {
        try await Harness.withServer { server in
            let client = try await TestWebSocketClient.connect(try connector(server), headers: [("X-Test", "raw")])
            #expect(client.upgradeResponse.status == .switchingProtocols)
            #expect(try await server.upgradeRequests.next().headers["X-Test"] == ["raw"])
            try await client.send(text: "hi")
            #expect(try await client.nextText() == "hi")
            try await client.send(frame: .text, fin: false, payload: Array("hel".utf8))
            try await client.send(frame: .continuation, fin: true, payload: Array("lo".utf8))
            #expect(try await client.next() == .text(Array("hello".utf8)))
            try await client.close(code: 1000, reason: "done")
            #expect(try await client.next() == .closed(code: 1000, reason: "done"))
            #expect(try await server.observed.next() == "close:1000")
        }
    }

    @Test("pings from the server are reported, not answered; a client ping gets a pong")
    func pings() async throws {
        try await Harness.withServer { server in
            let client = try await TestWebSocketClient.connect(try connector(server))
            try await client.send(text: "ping:p1")
            #expect(try await client.next() == .ping(Array("p1".utf8)))
            try await client.send(frame: .ping, payload: Array("p2".utf8))
            #expect(try await client.next() == .pong(Array("p2".utf8)))
            #expect(try await server.observed.next() == "ping:p2")
            await client.disconnect()
        }
    }

    @Test("a server close is reported with its code and reason and answered")
    func serverClose() async throws {
        try await Harness.withServer { server in
            let client = try await TestWebSocketClient.connect(try connector(server))
            try await client.send(text: "close:4401:unauthorized")
            let received = try await client.collect { if case .closed = $0 { true } else { false } }
            #expect(received == [.closed(code: 4401, reason: "unauthorized")])
            #expect(try await server.observed.next() == "close:4401")
        }
    }

    @Test("an unmasked frame is sent as asked (and the server refuses it)")
    func unmasked() async throws {
        try await Harness.withServer { server in
            let client = try await TestWebSocketClient.connect(try connector(server))
            try await client.send(frame: .text, payload: Array("x".utf8), masked: false)
            #expect(try await server.observed.next() == "unmasked")
            #expect(try await client.next() == .closed(code: 1002, reason: "unmasked"))
        }
    }

    @Test("a refused upgrade throws .upgradeRejected with the status")
    func upgradeRejected() async throws {
        try await Harness.withServer { server in
            await #expect {
                _ = try await TestWebSocketClient.connect(try connector(server, path: "/forbidden"))
            } throws: { error in
                (error as? TransportFailure)?.kind == .upgradeRejected && "\(error)".contains("403")
            }
        }
    }

    @Test("a client trusting another CA gets .tls")
    func wrongCA() async throws {
        try await Harness.withServer { server in
            let other = try TestTLSConnector(port: server.port, security: .caPEM(try TestCertificates().caPEM))
            await #expect {
                _ = try await TestWebSocketClient.connect(other)
            } throws: { error in
                (error as? TransportFailure)?.kind == .tls
            }
        }
    }

    @Test("HTTPS GET: /healthz answers 200, an unknown path 404")
    func httpsGet() async throws {
        try await Harness.withServer { server in
            let health = try await TestHTTPSClient.get(try connector(server), path: "/healthz")
            #expect(health.status == 200)
            #expect(health.bodyText == "ok")
            #expect(health.header("content-length") == "2")
            let missing = try await TestHTTPSClient.get(try connector(server), path: "/nope")
            #expect(missing.status == 404)
        }
    }

    @Test("raw TLS: garbage before the upgrade gets a 400 and a close")
    func garbage() async throws {
        try await Harness.withServer { server in
            let raw = try await TestRawTLSConnection.connect(try connector(server))
            try await raw.send("THIS IS NOT HTTP\r\n\r\n")
            let (bytes, _) = try await raw.readUntilClosed()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        }
    }
}
