import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalWire
import NIOCore
import NIOWebSocket
import Testing

@testable import GoalServer

/// The session's phases and inbound frames as a state machine, driven directly (issue 14 point 13), and the close
/// codes it answers with (point 4), also from a real TLS socket.
@Suite("a session's inbound side: phases, the hello budget, pipelined frames, closing", .slotted)
struct SessionInboundTests {
    private let allocator = ByteBufferAllocator()

    private func machine() -> SessionInbound {
        SessionInbound(maxBytesBeforeHello: 4_096, maxMessageBytes: 65_536)
    }

    private func text(_ count: Int) -> ByteBuffer {
        allocator.buffer(repeating: UInt8(ascii: "x"), count: count)
    }

    private func describe(_ action: SessionInbound.Action) -> String {
        switch action {
        case .decodeHello(let bytes, let limit): "decodeHello \(bytes.readableBytes) ≤ \(limit)"
        case .decodeMessage(let bytes, let limit): "decodeMessage \(bytes.readableBytes) ≤ \(limit)"
        case .pong(let payload): "pong \(payload.readableBytes)"
        case .answerClose(let code): "answerClose \(code)"
        case .closeConnection: "closeConnection"
        case .fail(let code, _, let close): "fail \(code.rawValue)" + (close.map { " \($0.rawValue)" } ?? "")
        case .none: "none"
        }
    }

    private let identity = SessionIdentity(
        token: StoredToken(
            name: "alice",
            role: .editor,
            secretHash: Array(repeating: 1, count: 32),
            created: Timestamp(millisecondsSince1970: 0),
            revoked: nil
        ),
        instance: .random(),
        stream: .all
    )

    private let hello = ClientMessage.Hello(token: "gt_x", clientInstance: .random())

    @Test("before hello: the first text is decoded as hello; 4 KiB covers it and what is pipelined behind it")
    func helloBudget() {
        var inbound = machine()
        #expect(describe(inbound.frame(opcode: .text, data: text(3_000))) == "decodeHello 3000 ≤ 4096")
        inbound.authenticating(hello)
        #expect(describe(inbound.frame(opcode: .text, data: text(1_000))) == "none", "held until hello is accepted")
        #expect(describe(inbound.frame(opcode: .text, data: text(200))) == "fail too_large")
    }

    @Test("frames pipelined behind the hello are handed back in order once it is accepted, then decoded as messages")
    func pipelinedFrames() {
        var inbound = machine()
        _ = inbound.frame(opcode: .text, data: text(100))
        inbound.authenticating(hello)
        _ = inbound.frame(opcode: .text, data: text(1))
        _ = inbound.frame(opcode: .text, data: text(2))
        #expect(
            describe(inbound.frame(opcode: .ping, data: text(3))) == "pong 3",
            "control frames are answered at once"
        )
        let pipelined = inbound.opened(identity)
        #expect(pipelined.map(\.readableBytes) == [1, 2])
        let again = inbound.opened(identity)
        #expect(again.isEmpty, "only once")
        #expect(describe(inbound.frame(opcode: .text, data: text(60_000))) == "decodeMessage 60000 ≤ 65536")
    }

    @Test("binary and reserved opcodes fail the session; pongs are ignored")
    func opcodes() {
        var inbound = machine()
        #expect(describe(inbound.frame(opcode: .binary, data: text(1))) == "fail bad_message")
        #expect(describe(inbound.frame(opcode: .pong, data: text(1))) == "none")
        let reserved = WebSocketOpcode(encodedWebSocketOpcode: 3)!
        #expect(describe(inbound.frame(opcode: reserved, data: text(1))) == "fail bad_message 1002")
    }

    @Test("closing: nothing is read but the peer's close, which closes the connection; close happens once")
    func closing() {
        var inbound = machine()
        let first = inbound.close()
        let second = inbound.close()
        #expect(first)
        #expect(!second)
        #expect(describe(inbound.frame(opcode: .text, data: text(1))) == "none")
        #expect(describe(inbound.frame(opcode: .connectionClose, data: text(0))) == "closeConnection")
    }

    private func closePayload(_ code: UInt16?, reason: [UInt8] = []) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 8)
        if let code { buffer.writeInteger(code) }
        buffer.writeBytes(reason)
        return buffer
    }

    @Test(
        "a peer's close is answered with its own code only when RFC 6455 lets it on the wire",
        arguments: [
            (nil, 1000), (1000, 1000), (1001, 1001), (1003, 1003), (1007, 1007), (1011, 1011), (1014, 1014),
            (3000, 3000), (4999, 4999), (0, 1002), (999, 1002), (1004, 1002), (1005, 1002), (1006, 1002),
            (1015, 1002), (1016, 1002), (2999, 1002), (5000, 1002),
        ] as [(UInt16?, UInt16)]
    )
    func closeAnswers(code: UInt16?, answer: UInt16) {
        #expect(SessionInbound.answer(toClose: closePayload(code)) == answer)
    }

    @Test("a 1-byte close payload is a protocol error; a reason that is not UTF-8 is 1007")
    func malformedClosePayloads() {
        var oneByte = allocator.buffer(capacity: 1)
        oneByte.writeInteger(UInt8(3))
        #expect(SessionInbound.answer(toClose: oneByte) == 1002)
        #expect(SessionInbound.answer(toClose: closePayload(1000, reason: [0xC3, 0x28])) == 1007)
        #expect(SessionInbound.answer(toClose: closePayload(1000, reason: Array("bye ⚽".utf8))) == 1000)
    }

    @Test("from a TLS socket: a close with a code no endpoint may send (1005) is answered 1002, never echoed")
    func forbiddenCloseCodeIsNotEchoed() async throws {
        try await withTestDaemon { daemon in
            let session = try await TestSession.open(daemon, token: daemon.tokens.viewer)
            try await session.client.close(code: 1005)
            let (_, code) = try await session.readUntilClosed()
            #expect(code == 1002)
        }
    }
}
