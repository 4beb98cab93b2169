import GoalClient
import GoalDeflate
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOCore
import NIOHTTP1
import Testing

/// Issue 17 point 1 on the client side: `WebSocketTransport` offers permessage-deflate (unless told not to),
/// inflates what arrives compressed, and fails a connection whose server answers what was not offered or sends
/// RSV1 without the extension.
@Suite("WebSocketTransport: permessage-deflate", .slotted)
struct WebSocketTransportDeflateTests {
    @Test("the upgrade request offers permessage-deflate with no context takeover; off, it offers nothing")
    func offer() async throws {
        try await Harness.withServer { server in
            let (first, events) = Harness.connect(try Harness.transport(port: server.port))
            #expect(try await events.next() == .connected)
            let offered = try await server.upgradeRequests.next()
            #expect(offered.headers["sec-websocket-extensions"] == [PerMessageDeflate.clientOffer])
            first.close(code: 1000)

            let off = WebSocketTransportConfiguration.default.with { $0.permessageDeflate = false }
            let (second, offEvents) = Harness.connect(try Harness.transport(port: server.port, configuration: off))
            #expect(try await offEvents.next() == .connected)
            let plain = try await server.upgradeRequests.next()
            #expect(plain.headers["sec-websocket-extensions"].isEmpty)
            second.close(code: 1000)
        }
    }

    @Test("accepted: a compressed message arrives inflated, and plain ones still pass")
    func inflates() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port, path: "/v1/deflate"))
            #expect(try await events.next() == .connected)
            let long = String(repeating: "goal! ", count: 300)
            connection.send(Array(text: "deflated:" + long))
            #expect(try await events.next().text == long)
            connection.send(Array(text: "plain"))
            #expect(try await events.next().text == "plain")
            connection.close(code: 1000)
        }
    }

    @Test("accepted, then corrupt compressed data: the client closes with 1007")
    func corrupt() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port, path: "/v1/deflate"))
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "corrupt"))
            guard case .closed(let code, _) = try await events.next() else {
                Issue.record("expected a close")
                return
            }
            #expect(code == 1007)
        }
    }

    @Test("not negotiated, an RSV1 frame is a protocol error: 1002")
    func unnegotiatedRSV1() async throws {
        try await Harness.withServer { server in
            let off = WebSocketTransportConfiguration.default.with { $0.permessageDeflate = false }
            let (connection, events) = Harness.connect(
                try Harness.transport(port: server.port, path: "/v1/deflate", configuration: off)
            )
            #expect(try await events.next() == .connected)
            connection.send(Array(text: "deflated:sneaky"))
            guard case .closed(let code, _) = try await events.next() else {
                Issue.record("expected a close")
                return
            }
            #expect(code == 1002)
        }
    }

    @Test("a server that answers an extension nobody offered fails the opening (RFC 6455 §9.1)")
    func bogusExtension() async throws {
        try await Harness.withServer { server in
            let (_, events) = Harness.connect(
                try Harness.transport(port: server.port, path: "/v1/bogus-extension")
            )
            guard case .failed(let failure) = try await events.next() else {
                Issue.record("expected the opening to fail")
                return
            }
            #expect(failure.kind == .upgradeRejected)
            #expect(failure.message.contains("x-bogus"))
        }
    }
}
