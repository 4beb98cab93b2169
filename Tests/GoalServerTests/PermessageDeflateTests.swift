import GoalDeflate
import GoalModel
import GoalServer
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Testing

/// Issue 17 point 1, from real TLS sockets: RFC 7692 permessage-deflate on `/v1/stream`. A session that offers it
/// gets each changeset compressed (RSV1 set) and the bytes inflate to exactly the frame a plain session gets; a
/// session that does not offer it, or a daemon with it off, sees plain frames only; compressed client messages are
/// read, and bad ones fail the connection with the documented code.
@Suite("permessage-deflate on /v1/stream", .slotted)
struct PermessageDeflateTests {
    /// What Chrome and Firefox send.
    static let browserOffer = "permessage-deflate; client_max_window_bits"

    /// Connects with `offer` (nil: none), says hello and reads welcome.
    static func open(
        _ daemon: TestDaemon,
        token: String,
        offer: String?,
        compressHello: Bool = false,
        since: Revision? = nil,
        epoch: LeagueEpoch? = nil,
        digest: Digest? = nil,
        protocolVersion: Int = 1
    ) async throws -> TestWebSocketClient {
        let headers = offer.map { [(name: "Sec-WebSocket-Extensions", value: $0)] } ?? []
        let client = try await TestWebSocketClient.connect(try daemon.connector(), headers: headers)
        let hello = ClientMessage.hello(
            .init(
                protocolVersion: protocolVersion,
                token: token,
                clientInstance: .random(),
                since: since,
                epoch: epoch,
                digest: digest,
                stream: .all
            )
        ).encoded()
        if compressHello {
            let compressed = try MessageDeflater().compress(hello, allocator: ByteBufferAllocator())
            try await client.send(frame: .text, payload: Array(compressed.readableBytesView), rsv1: true)
        } else {
            try await client.send(text: hello)
        }
        let welcome = try await client.nextText()
        #expect(welcome.hasPrefix(#"{"type":"welcome""#), "\(welcome)")
        return client
    }

    /// The next message that is not a ping, pong or presence, as the bytes of its frame (inflated when compressed),
    /// whether it came compressed, and its payload's size as it travelled.
    static func nextFrame(
        _ client: TestWebSocketClient
    ) async throws -> (bytes: [UInt8], compressed: Bool, wirePayload: Int) {
        while true {
            switch try await client.next() {
            case .text(let bytes):
                if String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"type":"presence"#) { continue }
                return (bytes, false, bytes.count)
            case .compressed(let bytes):
                let inflated = try MessageInflater().inflate(
                    ByteBufferAllocator().buffer(bytes: bytes),
                    limit: 1 << 20,
                    allocator: ByteBufferAllocator()
                )
                return (Array(inflated.readableBytesView), true, bytes.count)
            case .ping, .pong:
                continue
            case let other:
                throw TestClientError.unexpected(other.description)
            }
        }
    }

    @Test("the 101 accepts a browser's offer with no context takeover both ways, and no offer gets no header")
    func negotiation() async throws {
        try await withTestDaemon { daemon in
            let offered = try await TestWebSocketClient.connect(
                try daemon.connector(),
                headers: [(name: "Sec-WebSocket-Extensions", value: Self.browserOffer)]
            )
            #expect(
                offered.upgradeResponse.headers["sec-websocket-extensions"]
                    == ["permessage-deflate; server_no_context_takeover; client_no_context_takeover"]
            )
            let plain = try await TestWebSocketClient.connect(try daemon.connector())
            #expect(plain.upgradeResponse.headers["sec-websocket-extensions"].isEmpty)
            await offered.disconnect()
            await plain.disconnect()
        }
    }

    @Test("a changeset reaches a deflate session compressed and a plain session plain: the same bytes once inflated")
    func sameBytes() async throws {
        try await withTestDaemon { daemon in
            let deflating = try await Self.open(daemon, token: daemon.tokens.viewer, offer: Self.browserOffer)
            let plain = try await Self.open(daemon, token: daemon.tokens.viewer, offer: nil)
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            let home = PlayerID()
            let away = PlayerID()
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("Ada", id: home))
            _ = try await writer.commit(seq: 2, base: 1, Make.createPlayer("Béa", id: away))
            let match = MatchID()
            _ = try await writer.commit(seq: 3, base: 2, Make.createMatch(id: match, home: [home], away: [away]))
            _ = try await writer.commit(seq: 4, base: 3, .adjustGoals(id: match, side: .home, delta: 1))
            for revision in 1...4 {
                let compressed = try await Self.nextFrame(deflating)
                let uncompressed = try await Self.nextFrame(plain)
                #expect(compressed.compressed, "revision \(revision) came uncompressed")
                #expect(!uncompressed.compressed)
                #expect(compressed.bytes == uncompressed.bytes, "revision \(revision)")
                guard case .changeset(let changeset) = try ServerMessage.decode(uncompressed.bytes) else {
                    Issue.record("revision \(revision) is not a changeset")
                    continue
                }
                #expect(changeset.revision == UInt64(revision))
            }
            await deflating.disconnect()
            await plain.disconnect()
        }
    }

    @Test("a compressed hello and a compressed mutation are read; the mutation commits")
    func compressedClientMessages() async throws {
        try await withTestDaemon { daemon in
            let client = try await Self.open(
                daemon,
                token: daemon.tokens.editor,
                offer: PerMessageDeflate.clientOffer,
                compressHello: true
            )
            let mutation = Mutation(
                id: MutationID(instance: .random(), seq: 1),
                base: 0,
                action: Make.createPlayer("Squeezed")
            )
            let message = ClientMessage.mutate(.init(mutation)).encoded()
            let compressed = try MessageDeflater().compress(message, allocator: ByteBufferAllocator())
            // In two fragments: RSV1 on the first only (RFC 7692 §6.1).
            let bytes = Array(compressed.readableBytesView)
            try await client.send(frame: .text, fin: false, payload: Array(bytes.prefix(5)), rsv1: true)
            try await client.send(frame: .continuation, payload: Array(bytes.dropFirst(5)))
            let frame = try await Self.nextFrame(client)
            guard case .changeset(let changeset) = try ServerMessage.decode(frame.bytes) else {
                Issue.record("expected the changeset, got \(String(decoding: frame.bytes, as: UTF8.self))")
                return
            }
            #expect(changeset.revision == 1)
            await client.disconnect()
        }
    }

    enum BadCompressed: String, CaseIterable, Sendable {
        case corrupt
        case tooLargeInflated
        case rsv1OnContinuation
        case rsv1OnPing
        var expectedClose: UInt16 {
            switch self {
            case .corrupt: 1007
            case .tooLargeInflated: 4413  // as any message over limits.maxInboundMessageBytes
            case .rsv1OnContinuation, .rsv1OnPing: 1002
            }
        }
    }

    @Test("bad compressed input fails the connection with the documented close", arguments: BadCompressed.allCases)
    func badCompressed(_ bad: BadCompressed) async throws {
        var limits = ServerLimits()
        limits.maxInboundMessageBytes = 4_096
        try await withTestDaemon(limits: limits) { daemon in
            let client = try await Self.open(daemon, token: daemon.tokens.editor, offer: Self.browserOffer)
            switch bad {
            case .corrupt:
                try await client.send(frame: .text, payload: [0xFF, 0xFF, 0xFF, 0xFF, 0x01], rsv1: true)
            case .tooLargeInflated:
                let bomb = try MessageDeflater().compress(
                    [UInt8](repeating: 0x20, count: 100_000),
                    allocator: ByteBufferAllocator()
                )
                #expect(bomb.readableBytes < 4_096)
                try await client.send(frame: .text, payload: Array(bomb.readableBytesView), rsv1: true)
            case .rsv1OnContinuation:
                try await client.send(frame: .text, fin: false, payload: Array("{".utf8))
                try await client.send(frame: .continuation, payload: Array("}".utf8), rsv1: true)
            case .rsv1OnPing:
                try await client.send(frame: .ping, payload: [1], rsv1: true)
            }
            let received = try await client.collect { if case .closed = $0 { true } else { false } }
            guard case .closed(let code, _) = received.last else { return }
            #expect(code == bad.expectedClose, "\(bad)")
        }
    }

    @Test("with websocket.permessageDeflate off, offers are declined and an RSV1 frame is a protocol error")
    func off() async throws {
        let off: (inout ServerConfiguration) -> Void = { $0.permessageDeflate = false }
        try await withTestDaemon(configure: off) { daemon in
            let client = try await TestWebSocketClient.connect(
                try daemon.connector(),
                headers: [(name: "Sec-WebSocket-Extensions", value: Self.browserOffer)]
            )
            #expect(client.upgradeResponse.headers["sec-websocket-extensions"].isEmpty)
            let hello = try MessageDeflater().compress(
                ClientMessage.hello(.init(token: daemon.tokens.viewer, clientInstance: .random(), stream: .all))
                    .encoded(),
                allocator: ByteBufferAllocator()
            )
            try await client.send(frame: .text, payload: Array(hello.readableBytesView), rsv1: true)
            let received = try await client.collect { if case .closed = $0 { true } else { false } }
            guard case .closed(let code, _) = received.last else { return }
            #expect(code == 1002)
        }
    }

    @Test("a session resuming from behind gets its backlog plain, then live changesets compressed")
    func backlogThenLive() async throws {
        try await withTestDaemon { daemon in
            let writer = try await TestSession.open(daemon, token: daemon.tokens.editor, stream: .acks)
            _ = try await writer.commit(seq: 1, base: 0, Make.createPlayer("One"))
            _ = try await writer.commit(seq: 2, base: 1, Make.createPlayer("Two"))
            let anchor = try await TestSession.open(daemon, token: daemon.tokens.viewer, stream: .acks)
            let client = try await Self.open(
                daemon,
                token: daemon.tokens.viewer,
                offer: Self.browserOffer,
                since: 0,
                epoch: anchor.welcome.epoch,
                digest: .genesis
            )
            var kinds: [Bool] = []
            for _ in 1...2 { kinds.append(try await Self.nextFrame(client).compressed) }
            #expect(kinds == [false, false])  // the backlog, from the log as is
            _ = try await Self.nextFrame(client)  // caught_up
            _ = try await writer.commit(seq: 3, base: 2, Make.createPlayer("Three"))
            let live = try await Self.nextFrame(client)
            #expect(live.compressed)
            guard case .changeset(let changeset) = try ServerMessage.decode(live.bytes) else {
                Issue.record("expected a changeset")
                return
            }
            #expect(changeset.revision == 3)
            await client.disconnect()
        }
    }
}
