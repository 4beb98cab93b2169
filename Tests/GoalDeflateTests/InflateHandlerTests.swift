import GoalTestSlots
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import GoalDeflate

/// `PerMessageInflateHandler` on an `EmbeddedChannel`: compressed messages (whole and fragmented) come out
/// inflated, others unchanged, and each RFC 7692 §6 violation fails the connection once.
@Suite("the inflate handler on EmbeddedChannel", .slotted)
struct InflateHandlerTests {
    final class Sink: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var frames: [WebSocketFrame] = []
        var errors: [any Error] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { frames.append(unwrapInboundIn(data)) }
        func errorCaught(context: ChannelHandlerContext, error: any Error) { errors.append(error) }
    }

    private func channel(_ sink: Sink, limit: Int = 1 << 16, keeps: Bool = false) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(PerMessageInflateHandler(limit: limit, keepsInflater: keeps))
        try channel.pipeline.syncOperations.addHandler(sink)
        return channel
    }

    private func compressed(_ text: String) throws -> ByteBuffer {
        try MessageDeflater().compress(Array(text.utf8), allocator: ByteBufferAllocator())
    }

    private func frame(
        _ opcode: WebSocketOpcode,
        fin: Bool = true,
        rsv1: Bool = false,
        _ data: ByteBuffer,
        masked: Bool = true
    ) -> WebSocketFrame {
        // As a decoder hands a client frame over: the payload still masked, with its key.
        let key: WebSocketMaskingKey? = masked ? .random() : nil
        var payload = data
        if let key { payload.webSocketMask(key) }
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, maskKey: key, data: payload)
    }

    @Test(
        "a compressed masked text frame comes out inflated with RSV1 clear; a plain one unchanged",
        arguments: [false, true]
    )
    func whole(keeps: Bool) throws {
        let sink = Sink()
        let channel = try channel(sink, keeps: keeps)
        let message = #"{"type":"mutate","seq":1}"#
        try channel.writeInbound(frame(.text, rsv1: true, try compressed(message)))
        try channel.writeInbound(frame(.text, ByteBuffer(string: "plain"), masked: false))
        try channel.writeInbound(frame(.text, rsv1: true, try compressed(message)))
        #expect(sink.errors.isEmpty)
        #expect(sink.frames.map { String(buffer: $0.unmaskedData) } == [message, "plain", message])
        #expect(sink.frames.allSatisfy { !$0.rsv1 && $0.fin })
    }

    @Test("a fragmented compressed message is joined and inflated once; control frames between fragments pass")
    func fragmented() throws {
        let sink = Sink()
        let channel = try channel(sink)
        let message = String(repeating: "goal ", count: 200)
        let data = try compressed(message)
        let half = data.readableBytes / 2
        try channel.writeInbound(
            frame(.text, fin: false, rsv1: true, data.getSlice(at: data.readerIndex, length: half)!)
        )
        try channel.writeInbound(frame(.ping, ByteBuffer(string: "p")))
        try channel.writeInbound(
            frame(.continuation, data.getSlice(at: data.readerIndex + half, length: data.readableBytes - half)!)
        )
        #expect(sink.errors.isEmpty)
        #expect(sink.frames.map(\.opcode) == [.ping, .text])
        #expect(String(buffer: sink.frames[1].unmaskedData) == message)
    }

    @Test("uncompressed fragments pass through unchanged for the aggregator")
    func plainFragments() throws {
        let sink = Sink()
        let channel = try channel(sink)
        try channel.writeInbound(frame(.text, fin: false, ByteBuffer(string: "a")))
        try channel.writeInbound(frame(.continuation, ByteBuffer(string: "b")))
        #expect(sink.frames.map(\.opcode) == [.text, .continuation])
        #expect(sink.errors.isEmpty)
    }

    @Test("violations fail once and nothing after them is read")
    func violations() throws {
        let cases: [([WebSocketFrame], PerMessageDeflateError)] = [
            ([frame(.ping, rsv1: true, ByteBuffer())], .misplacedRSV1("control")),
            (
                [frame(.text, fin: false, ByteBuffer(string: "a")), frame(.continuation, rsv1: true, ByteBuffer())],
                .misplacedRSV1("continuation")
            ),
            (
                [frame(.text, fin: false, rsv1: true, try compressed("x")), frame(.text, ByteBuffer(string: "y"))],
                .interleavedMessage
            ),
            ([frame(.text, rsv1: true, ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x01]))], .corruptData),
        ]
        for (frames, expected) in cases {
            let sink = Sink()
            let channel = try channel(sink)
            for frame in frames { try channel.writeInbound(frame) }
            try channel.writeInbound(frame(.text, ByteBuffer(string: "after")))
            #expect(sink.errors.map { $0 as? PerMessageDeflateError } == [expected])
            #expect(!sink.frames.contains { String(buffer: $0.unmaskedData) == "after" })
        }
    }

    @Test("the limit holds compressed (while gathering fragments) and inflated")
    func limits() throws {
        let sink = Sink()
        let channel = try channel(sink, limit: 1_000)
        try channel.writeInbound(frame(.text, rsv1: true, try compressed(String(repeating: "z", count: 5_000))))
        #expect(sink.errors.map { $0 as? PerMessageDeflateError } == [.messageTooLarge(limit: 1_000)])

        let gathering = Sink()
        let second = try self.channel(gathering, limit: 10)
        try second.writeInbound(
            frame(.text, fin: false, rsv1: true, ByteBuffer(bytes: [UInt8](repeating: 1, count: 8)))
        )
        try second.writeInbound(frame(.continuation, fin: false, ByteBuffer(bytes: [UInt8](repeating: 1, count: 8))))
        #expect(gathering.errors.map { $0 as? PerMessageDeflateError } == [.messageTooLarge(limit: 10)])
    }
}
