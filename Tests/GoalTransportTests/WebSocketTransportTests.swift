import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@Suite("WebSocketTransport: an open connection", .slotted)
struct WebSocketTransportTests {
    @Test("connects, then a clean close surfaces the echoed code")
    func connectAndClose() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.close(code: 1000)
            #expect(try await events.next() == .closed(code: 1000, reason: ""))
            #expect(try await server.observed.next() == "close:1000")
        }
    }

    @Test("a text message makes the round trip")
    func echo() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: #"{"type":"hello"}"#))
            #expect(try await events.next().text == #"{"type":"hello"}"#)
            connection.close(code: 1000)
        }
    }

    @Test("a fragmented inbound message arrives as one message")
    func fragmentedInbound() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "fragments:5:one message in five fragments"))
            #expect(try await events.next().text == "one message in five fragments")
            connection.close(code: 1000)
        }
    }

    @Test("a server ping is answered with a pong carrying its payload")
    func serverPingAnswered() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "ping:are-you-there"))
            #expect(try await server.observed.next() == "pong:are-you-there")
            #expect(try await events.next().text == "pong:are-you-there")
            connection.close(code: 1000)
        }
    }

    @Test("ping() reaches the server and its pong surfaces as .pong")
    func clientPing() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.ping()
            #expect(try await events.next() == .pong)
            #expect(try await server.observed.next() == "ping:")
            connection.close(code: 1000)
        }
    }

    @Test("the server's close code and reason surface in .closed, and the close is answered")
    func serverClose() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "close:4008:slow consumer"))
            #expect(try await events.next() == .closed(code: 4008, reason: "slow consumer"))
            #expect(try await server.observed.next() == "close:4008")
        }
    }

    @Test("a connection dropped without a close frame surfaces as .closed(nil)")
    func dropped() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "drop"))
            guard case .closed(let code, let reason) = try await events.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(code == nil)
            #expect(reason.contains("connection dropped"))
        }
    }

    @Test("messages sent before .connected are queued and delivered in order")
    func sendBeforeConnected() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            for word in ["one", "two", "three"] { connection.send(Array(text: word)) }
            connection.ping()
            let received = try await events.collect { $0 == .pong }
            #expect(
                received == [
                    .connected, .message(Array(text: "one")), .message(Array(text: "two")),
                    .message(Array(text: "three")), .pong,
                ]
            )
            connection.close(code: 1000)
        }
    }

    @Test("an inbound frame over the cap closes with 1009", arguments: ["big:2048", "bigfragments:4:2048"])
    func inboundCap(_ command: String) async throws {
        try await Harness.withServer { server in
            let configuration = WebSocketTransportConfiguration(maxInboundMessageSize: 1024)
            let transport = try Harness.transport(port: server.port, configuration: configuration)
            let (connection, events) = Harness.connect(transport)
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "big:1024"))
            #expect(try await events.next().text?.count == 1024)
            connection.send(Array(text: command))
            guard case .closed(let code, let reason) = try await events.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(code == 1009)
            #expect(reason.contains("1024"))
            #expect(try await server.observed.next() == "close:1009")
        }
    }

    @Test("the local source address is bound when asked, per transport or per connection")
    func localAddress() async throws {
        try await Harness.withServer { server in
            let local = try SocketAddress(ipAddress: "127.0.0.2", port: 0)
            let transport = try Harness.transport(port: server.port, localAddress: local)
            let (connection, events) = Harness.connect(transport)
            #expect(try await events.next() == .connected)
            #expect(try await server.peers.next() == "127.0.0.2")
            connection.close(code: 1000)
            // A per-connection address overrides the transport's.
            let perCall = TestInbox<TransportEvent>()
            let other = transport.openConnection(localAddress: try SocketAddress(ipAddress: "127.0.0.3", port: 0)) {
                perCall.push($0)
            }
            #expect(try await perCall.next() == .connected)
            #expect(try await server.peers.next() == "127.0.0.3")
            other.close(code: 1000)
        }
    }

    @Test(
        "connects by host name (SNI, DNS name in the certificate) and by IPv6 literal (IP address in it)",
        arguments: [("localhost", "127.0.0.1"), ("::1", "::1")]
    )
    func hostForms(_ host: String, _ listen: String) async throws {
        try await Harness.withServer(host: listen) { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port, host: host))
            #expect(try await events.next() == .connected)
            connection.close(code: 1000)
        }
    }

    @Test("a message sent right behind the 101 arrives after .connected")
    func eagerServer() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port, path: "/v1/eager"))
            #expect(try await events.next() == .connected)
            #expect(try await events.next().text == "welcome")
            connection.close(code: 1000)
            #expect(try await events.next() == .closed(code: 1000, reason: ""))
        }
    }

    @Test("a peer that never answers close is dropped after closeTimeout with .closed(nil)")
    func closeTimeout() async throws {
        try await Harness.withServer { server in
            let configuration = WebSocketTransportConfiguration(closeTimeout: .milliseconds(200))
            let (connection, events) = Harness.connect(
                try Harness.transport(port: server.port, configuration: configuration)
            )
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "deaf"))
            #expect(try await events.next().text == "deaf")
            connection.close(code: 1000)
            guard case .closed(let code, let reason) = try await events.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(code == nil)
            #expect(reason.contains("did not answer"))
            #expect(try await server.observed.next() == "close:1000")
        }
    }

    @Test("a frame with a reserved opcode closes with 1002")
    func reservedOpcode() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "opcode:3"))
            guard case .closed(let code, _) = try await events.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(code == 1002)
            #expect(try await server.observed.next() == "close:1002")
        }
    }

    @Test("the upgrade request names the path, the Host and the configured extra headers")
    func upgradeRequest() async throws {
        try await Harness.withServer { server in
            let configuration = WebSocketTransportConfiguration(extraHeaders: [("User-Agent", "goal-client/test")])
            let (connection, events) = Harness.connect(
                try Harness.transport(port: server.port, configuration: configuration)
            )
            #expect(try await events.next() == .connected)
            let head = try await server.upgradeRequests.next()
            #expect(head.method == .GET)
            #expect(head.uri == "/v1/stream")
            #expect(head.headers["Host"] == ["127.0.0.1:\(server.port)"])
            #expect(head.headers["User-Agent"] == ["goal-client/test"])
            #expect(head.headers["Sec-WebSocket-Version"] == ["13"])
            connection.close(code: 1000)
        }
    }
}
