import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalTransport
import GoalWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket
import Testing

@Suite("bad input: each gets its documented error or close, and nobody else notices", .slotted)
struct BadInputTests {
    /// What a bad-input case sends, and when.
    enum Send: Sendable {
        case beforeHello([UInt8])
        case afterHello([UInt8])
        case binaryAfterHello
        case fragmentsAfterHello(count: Int, size: Int)
    }

    static let oversize = [UInt8](repeating: UInt8(ascii: "a"), count: 70 * 1024)

    static let cases: [(String, Send, WireErrorCode, UInt16)] = [
        ("malformed JSON", .beforeHello(Array(#"{"type":"hello","#.utf8)), .badMessage, 4400),
        ("unknown type", .beforeHello(Array(#"{"type":"subscribe"}"#.utf8)), .unknownType, 4400),
        (
            "mutate before hello",
            .beforeHello(
                Array(
                    #"{"type":"mutate","seq":1,"base":0,"op":"delete_match","id":"6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b"}"#
                        .utf8
                )
            ), .notAuthenticated, 4400
        ),
        ("over 4 KiB before hello", .beforeHello([UInt8](repeating: 0x20, count: 5_000)), .tooLarge, 4413),
        ("invalid UTF-8", .afterHello([0x7b, 0xff, 0xfe, 0x7d]), .badMessage, 1007),
        (
            "a seq of the wrong type",
            .afterHello(
                Array(
                    #"{"type":"mutate","seq":"one","base":0,"op":"adjust_goals","id":"6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b","side":"home","delta":1}"#
                        .utf8
                )
            ), .badMessage, 4400
        ),
        (
            "a seq of 2^63 (refused, never clamped)",
            .afterHello(
                Array(
                    #"{"type":"mutate","seq":9223372036854775808,"base":0,"op":"delete_match","id":"6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b"}"#
                        .utf8
                )
            ), .badMessage, 4400
        ),
        (
            "second hello",
            .afterHello(Array(#"{"type":"hello","protocol":1,"token":"x","client_instance":"c"}"#.utf8)),
            .alreadyAuthenticated, 4400
        ),
        ("over 64 KiB after hello", .afterHello(oversize), .tooLarge, 4413),
        ("binary frame", .binaryAfterHello, .badMessage, 4400),
        ("fragments adding up past 64 KiB", .fragmentsAfterHello(count: 5, size: 16 * 1024), .tooLarge, 4413),
    ]

    @Test("each bad message: its error code, its close code; a bystander keeps receiving", arguments: cases.indices)
    func catalogue(index: Int) async throws {
        let (name, send, code, close) = Self.cases[index]
        try await withTestDaemon { daemon in
            let bystander = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            switch send {
            case .beforeHello(let bytes):
                try await client.send(text: bytes)
            case .afterHello, .binaryAfterHello, .fragmentsAfterHello:
                let hello = ClientMessage.hello(.init(token: daemon.tokens.editor, clientInstance: .random()))
                try await client.send(text: hello.encoded())
                #expect(try await client.nextText().contains(#""type":"welcome""#))
                switch send {
                case .afterHello(let bytes): try await client.send(text: bytes)
                case .binaryAfterHello: try await client.send(binary: [1, 2, 3])
                case .fragmentsAfterHello(let count, let size):
                    for index in 0..<count {
                        try await client.send(
                            frame: index == 0 ? .text : .continuation,
                            fin: index == count - 1,
                            payload: [UInt8](repeating: 0x20, count: size)
                        )
                    }
                default: break
                }
            }
            let error = try ServerMessage.decode(Array(try await client.nextText().utf8))
            #expect(error.errorCode == code, "\(name)")
            #expect(try await client.next() == .closed(code: close, reason: code.rawValue), "\(name)")

            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("After \(name)"))
            #expect(try await bystander.next().changesetRevision == 1, "\(name)")
        }
    }

    @Test("a valid message split into fragments is joined and accepted")
    func fragmentedHello() async throws {
        try await withTestDaemon { daemon in
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            let hello = ClientMessage.hello(.init(token: daemon.tokens.editor, clientInstance: .random())).encoded()
            let parts = [Array(hello[0..<10]), Array(hello[10..<40]), Array(hello[40...])]
            for (index, part) in parts.enumerated() {
                try await client.send(
                    frame: index == 0 ? .text : .continuation,
                    fin: index == parts.count - 1,
                    payload: part
                )
            }
            #expect(try await client.nextText().contains(#""type":"welcome""#))
        }
    }

    @Test("a flood of frames (pings count too) closes with 4029")
    func flood() async throws {
        var limits = ServerLimits()
        // A bucket that (practically) never refills: the 51st frame trips it however slowly the frames arrive
        // (50 a second let a busy machine send 200 pings slower than the bucket refilled).
        limits.framesPerSecond = 0.001
        limits.frameBurst = 50
        try await withTestDaemon(limits: limits) { daemon in
            let client = try await TestWebSocketClient.connect(try daemon.connector())
            let hello = ClientMessage.hello(.init(token: daemon.tokens.editor, clientInstance: .random()))
            try await client.send(text: hello.encoded())
            #expect(try await client.nextText().contains(#""type":"welcome""#))
            for _ in 0..<200 { try? await client.send(frame: .ping, payload: []) }
            let received = try await client.collect { if case .closed = $0 { true } else { false } }
            #expect(received.contains { $0.text?.contains(#""code":"flood""#) ?? false })
            #expect(received.last == .closed(code: 4029, reason: "flood"))
        }
    }

    @Test("no hello within the handshake deadline closes with 4011")
    func slowHandshake() async throws {
        // The deadline covers TLS and the upgrade too: on a loaded machine (the thread-sanitizer run) 2 s may pass
        // before the upgrade completes, and the daemon then closes TCP (documented, not this test's case). Such an
        // attempt is tried again with a longer deadline; the close after the upgrade must be 4011.
        for milliseconds in [2_000, 8_000, 20_000] {
            var limits = ServerLimits()
            limits.handshakeTimeoutMilliseconds = milliseconds
            let closed: UInt16?? = try await withTestDaemon(limits: limits) { daemon in
                let client: TestWebSocketClient
                do {
                    client = try await TestWebSocketClient.connect(try daemon.connector())
                } catch {
                    return nil  // the deadline passed before the upgrade completed
                }
                let received = try await client.collect { if case .closed = $0 { true } else { false } }
                #expect(received.last == .closed(code: 4011, reason: "handshake_timeout"))
                guard case .closed(let code, _) = received.last else { return .some(nil) }
                return .some(code)
            }
            if closed != nil { return }
        }
        Issue.record("no attempt completed the upgrade within a 20 s handshake deadline")
    }

    @Test("a huge since is answered with a snapshot, not an error")
    func hugeSince() async throws {
        try await withTestDaemon { daemon in
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("Ada"))
            let session = try await TestSession.open(daemon, token: daemon.tokens.viewer, since: UInt64(Int64.max))
            #expect(session.welcome.mode == .snapshot)
        }
    }

    @Test("plaintext HTTP to the TLS port is dropped without an answer, and the daemon keeps serving")
    func plaintextToTLSPort() async throws {
        try await withTestDaemon { daemon in
            let answer = try await PlaintextProbe.send(
                Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                port: daemon.port
            )
            #expect(!String(decoding: answer, as: UTF8.self).contains("HTTP/1.1 200"))
            let health = try await TestHTTPSClient.get(try daemon.connector(), path: "/healthz")
            #expect(health.status == 200)
        }
    }
}

/// Sends raw bytes over plain TCP and returns whatever comes back before the server closes.
enum PlaintextProbe {
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<[UInt8]>
        let received = NIOLockedValueBox<[UInt8]>([])

        init(promise: EventLoopPromise<[UInt8]>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.succeed(received.withLockedValue { $0 })
        }
    }

    static func send(_ bytes: [UInt8], port: Int) async throws -> [UInt8] {
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: [UInt8].self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
        defer { timeout.cancel() }
        return try await promise.futureResult.get()
    }
}
