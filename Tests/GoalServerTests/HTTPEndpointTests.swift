import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import Testing

@Suite("HTTP on the daemon's port: /healthz, /metrics, 404", .slotted)
struct HTTPEndpointTests {
    @Test("/healthz reports the node, the durable head and digest, and the store with its head")
    func healthz() async throws {
        let named: (inout ServerConfiguration) -> Void = { $0.nodeID = "node \"a\"" }
        try await withTestDaemon(configure: named) { daemon in
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            let response = try await TestHTTPSClient.get(try daemon.connector(), path: "/healthz")
            #expect(response.status == 200)
            let health = try #require(
                try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [String: Any]
            )
            #expect(health["node"] as? String == "node \"a\"", "the node id is escaped as JSON")
            #expect(health["head"] as? Int == 1)
            #expect(health["digest"] as? String == (try daemon.storage.logBounds()).headDigest.hex)
            #expect(health["store"] as? String == "memory")
            #expect(health["store_available"] as? Bool == true)
            #expect(health["store_head"] as? Int == 1)
            #expect(health["trailing"] as? Int == 0)
        }
    }

    @Test("/metrics: 401 without a token, 403 for an editor, the Prometheus text for an admin")
    func metricsNeedsAnAdmin() async throws {
        try await withTestDaemon { daemon in
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            _ = try await writer.commit(seq: 2, base: 0, Make.createPlayer("ada"))  // name_taken
            let connector = try daemon.connector()
            #expect(try await TestHTTPSClient.get(connector, path: "/metrics").status == 401)
            let editor = try await TestHTTPSClient.get(
                connector,
                path: "/metrics",
                headers: [("Authorization", "Bearer \(daemon.tokens.editor)")]
            )
            #expect(editor.status == 403)
            let admin = try await TestHTTPSClient.get(
                connector,
                path: "/metrics",
                headers: [("Authorization", "Bearer \(daemon.tokens.admin)")]
            )
            #expect(admin.status == 200)
            #expect(admin.bodyText.contains("goald_commits_total 1"))
            #expect(admin.bodyText.contains(#"goald_rejections_total{code="name_taken"} 1"#))
            #expect(admin.bodyText.contains("goald_commit_latency_seconds_bucket"))
        }
    }

    @Test("the loopback metrics listener serves /metrics without a token")
    func metricsListener() async throws {
        let loopbackMetrics: (inout ServerConfiguration) -> Void = {
            $0.metricsListener = .init(host: "127.0.0.1", port: 0)
        }
        try await withTestDaemon(configure: loopbackMetrics) { daemon in
            let addresses = try await daemon.daemon.listeningAddresses()
            let port = try #require(addresses.metricsPort)
            let response = try await PlaintextProbe.send(
                Array("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                port: port
            )
            let text = String(decoding: response, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("goald_connections"))
        }
    }

    @Test("anything else is 404; /v1/stream without the upgrade is 426")
    func notFound() async throws {
        try await withTestDaemon { daemon in
            let connector = try daemon.connector()
            #expect(try await TestHTTPSClient.get(connector, path: "/nope").status == 404)
            #expect(try await TestHTTPSClient.get(connector, path: "/v1/stream").status == 426)
        }
    }
}
