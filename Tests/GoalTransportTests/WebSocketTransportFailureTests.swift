import Foundation
import GoalClient
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@Suite("WebSocketTransport: connections that cannot open", .slotted)
struct WebSocketTransportFailureTests {
    @Test("a refused port fails with .cannotConnect")
    func refused() async throws {
        let refused = try ClosedPort()
        let (_, events) = Harness.connect(try Harness.transport(port: refused.port))
        let failure = try await events.next().failure
        withExtendedLifetime(refused) {}
        #expect(failure?.kind == .cannotConnect)
        #expect(failure?.message.contains("refused") == true)
    }

    @Test("an unresolvable host fails with .cannotConnect naming the host")
    func unresolvable() async throws {
        let (_, events) = Harness.connect(try Harness.transport(port: 7443, host: "no-such-host.invalid"))
        let failure = try await events.next().failure
        #expect(failure?.kind == .cannotConnect)
        #expect(failure?.message.contains("no-such-host.invalid") == true)
    }

    @Test("a certificate from another CA fails with .tls and says how to fix it")
    func wrongCA() async throws {
        try await Harness.withServer { server in
            let otherCA = try TestCertificates()
            let transport = try Harness.transport(port: server.port, security: .caPEM(otherCA.caPEM))
            let (_, events) = Harness.connect(transport)
            let failure = try await events.next().failure
            #expect(failure?.kind == .tls)
            #expect(failure?.message.contains("certificate not trusted") == true)
            #expect(failure?.message.contains("--ca-file") == true)
        }
    }

    @Test("an address the certificate does not cover fails with .tls")
    func uncoveredAddress() async throws {
        // The certificate names localhost, 127.0.0.1 and ::1; Linux routes all of 127.0.0.0/8 to loopback.
        try await Harness.withServer(host: "127.0.0.2") { server in
            let (_, events) = Harness.connect(try Harness.transport(port: server.port, host: "127.0.0.2"))
            let failure = try await events.next().failure
            #expect(failure?.kind == .tls)
            #expect(failure?.message.contains("does not cover 127.0.0.2") == true)
        }
    }

    @Test("the right pinned fingerprint connects, with or without colons")
    func pinnedRight() async throws {
        try await Harness.withServer { server in
            let fingerprint = TestCertificates.shared.serverFingerprint.description
            for text in [fingerprint, fingerprint.replacingOccurrences(of: ":", with: "")] {
                let transport = try Harness.transport(port: server.port, security: .pinnedFingerprint(text))
                let (connection, events) = Harness.connect(transport)
                #expect(try await events.next() == .connected)
                connection.close(code: 1000)
                #expect(try await events.next() == .closed(code: 1000, reason: ""))
            }
        }
    }

    @Test("a wrong pinned fingerprint fails with .tls naming both fingerprints")
    func pinnedWrong() async throws {
        try await Harness.withServer { server in
            let wrong = try TestCertificates().serverFingerprint
            let transport = try Harness.transport(port: server.port, security: .pinnedFingerprint(wrong.description))
            let (_, events) = Harness.connect(transport)
            let failure = try await events.next().failure
            #expect(failure?.kind == .tls)
            let message = failure?.message ?? ""
            #expect(message.contains("fingerprint mismatch"))
            #expect(message.contains("expected \(wrong)"))
            #expect(message.contains("got \(TestCertificates.shared.serverFingerprint)"))
        }
    }

    @Test("insecure mode accepts any certificate")
    func insecure() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port, security: .insecure))
            #expect(try await events.next() == .connected)
            connection.close(code: 1000)
        }
    }

    @Test("a refused upgrade fails with .upgradeRejected and the HTTP status")
    func upgradeRejected() async throws {
        try await Harness.withServer { server in
            let (_, events) = Harness.connect(try Harness.transport(port: server.port, path: "/forbidden"))
            let failure = try await events.next().failure
            #expect(failure?.kind == .upgradeRejected)
            #expect(failure?.message.contains("403") == true)
        }
    }

    @Test("a server that never answers the TLS handshake fails with .timeout")
    func timeout() async throws {
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let configuration = WebSocketTransportConfiguration(connectTimeout: .milliseconds(300))
        let transport = try Harness.transport(port: silent.localAddress!.port!, configuration: configuration)
        let (_, events) = Harness.connect(transport)
        let failure = try await events.next().failure
        try await silent.close().get()
        #expect(failure?.kind == .timeout)
    }

    @Test("a plaintext HTTP port fails with .tls asking whether it is a goald TLS port")
    func plaintextPeer() async throws {
        let plain = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(PlainHTTPHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let (_, events) = Harness.connect(try Harness.transport(port: plain.localAddress!.port!))
        let failure = try await events.next().failure
        try await plain.close().get()
        #expect(failure?.kind == .tls)
        #expect(failure?.message.contains("goald TLS port") == true)
    }

    @Test("close before the connection opens abandons it with one .closed(nil)")
    func closeWhileConnecting() async throws {
        try await Harness.withServer { server in
            let (connection, events) = Harness.connect(try Harness.transport(port: server.port))
            connection.send(Array(text: "never sent"))
            connection.close(code: 1000)
            guard case .closed(let code, _) = try await events.next() else {
                Issue.record("expected .closed")
                return
            }
            #expect(code == nil)
        }
    }

    @Test("after the terminal event nothing else is delivered and sends are dropped")
    func nothingAfterTerminal() async throws {
        // One event loop: everything the first connection does after its terminal event is queued on that loop
        // before the second connection even starts, so the second one's events prove the first stayed silent.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try await Harness.withServer { server in
            let transport = try Harness.transport(port: server.port, group: group)
            let (first, firstEvents) = Harness.connect(transport)
            #expect(try await firstEvents.next() == .connected)
            first.send(Array(text: "close:1000"))
            #expect(try await firstEvents.next() == .closed(code: 1000, reason: ""))
            first.send(Array(text: "after the end"))
            first.ping()
            first.close(code: 1000)
            let (second, secondEvents) = Harness.connect(transport)
            #expect(try await secondEvents.next() == .connected)
            second.close(code: 1000)
            #expect(try await secondEvents.next() == .closed(code: 1000, reason: ""))
            #expect(firstEvents.buffered.isEmpty)
        }
        try await group.shutdownGracefully()
    }
}
