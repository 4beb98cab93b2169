import GoalModel
import GoalTestSlots
import GoalWire
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import GoalServer

/// `SessionHandler` as the machine's adapter on an `EmbeddedChannel` (issue 36 point 1): the handshake deadline,
/// bad input, the heartbeat, the peer's close and a slow consumer, each from NIO's events to the bytes and the
/// close on the channel. Time is the embedded loop's own (`advanceTime`): no socket, no sleep, no wall clock.
@Suite("the session handler adapts NIO to the session machine", .slotted)
struct SessionHandlerAdapterTests {
    /// The close code of the first close frame in what was written (0x88: FIN + close, unmasked, short payload).
    static func closeCode(in bytes: [UInt8]) -> UInt16? {
        guard let start = bytes.firstIndex(of: 0x88), start + 3 < bytes.count, bytes[start + 1] >= 2 else {
            return nil
        }
        return UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3])
    }

    /// Every byte written to the socket so far.
    static func written(_ harness: SessionHarness) throws -> [UInt8] {
        var all = ByteBuffer()
        while var buffer = try harness.channel.readOutbound(as: ByteBuffer.self) { all.writeBuffer(&buffer) }
        return Array(all.readableBytesView)
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test(
        "no hello within the handshake timeout: error{handshake_timeout}, its close code, the connection closes 2 s on"
    )
    func handshakeDeadline() throws {
        var limits = ServerLimits()
        limits.handshakeTimeoutMilliseconds = 3_000
        let harness = try SessionHarness(limits: limits, mode: nil)
        let loop = harness.channel.embeddedEventLoop
        loop.advanceTime(by: .milliseconds(2_999))
        #expect(try Self.written(harness).isEmpty, "nothing before the deadline")
        loop.advanceTime(by: .milliseconds(1))
        let bytes = try Self.written(harness)
        #expect(Self.text(bytes).contains(WireErrorCode.handshakeTimeout.rawValue), "\(Self.text(bytes))")
        #expect(Self.closeCode(in: bytes) == WireErrorCode.handshakeTimeout.closeCode.rawValue)
        #expect(harness.channel.isActive, "the peer has 2 s to answer the close")
        loop.advanceTime(by: .milliseconds(1_999))
        #expect(harness.channel.isActive)
        loop.advanceTime(by: .milliseconds(1))
        #expect(!harness.channel.isActive)
        try harness.finish()
    }

    @Test(
        "bad input before hello: each is answered with its error and close code",
        arguments: [
            (WebSocketOpcode.binary, "x", WireErrorCode.badMessage),
            (.text, #"{"type":"presence","state":"online"}"#, .notAuthenticated),
            (
                .text,
                #"{"type":"hello","protocol":99,"token":"gt_x","client_instance":"c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f","stream":"all"}"#,
                .protocolVersion
            ),
            (.text, String(repeating: " ", count: 5_000), .tooLarge),
        ]
    )
    func badInputBeforeHello(opcode: WebSocketOpcode, payload: String, code: WireErrorCode) throws {
        let harness = try SessionHarness(mode: nil)
        try harness.read(opcode, payload)
        let bytes = try Self.written(harness)
        #expect(Self.text(bytes).contains(#""code":"\#(code.rawValue)""#), "\(Self.text(bytes))")
        #expect(Self.closeCode(in: bytes) == code.closeCode.rawValue)
        #expect(harness.session.isClosing)
        try harness.read(.text, #"{"type":"hello"}"#)
        #expect(try Self.written(harness).isEmpty, "nothing is read after the close but the peer's close")
        try harness.read(.connectionClose, "")
        #expect(!harness.channel.isActive, "the peer's answer to our close ends the connection")
        try harness.finish()
    }

    @Test("an error raised beneath the session (the flood guard) fails it with its own code")
    func floodFromThePipeline() throws {
        let harness = try SessionHarness()
        harness.channel.pipeline.fireErrorCaught(SessionInboundError.flood)
        let bytes = try Self.written(harness)
        #expect(Self.text(bytes).contains(WireErrorCode.flood.rawValue))
        #expect(Self.closeCode(in: bytes) == WireErrorCode.flood.closeCode.rawValue)
        try harness.finish()
    }

    @Test("the heartbeat pings every interval while frames arrive, and fails the session once nothing was read")
    func heartbeat() throws {
        var limits = ServerLimits()
        limits.pingIntervalMilliseconds = 1_000
        limits.idleTimeoutMilliseconds = 2_500
        let harness = try SessionHarness(limits: limits)
        let loop = harness.channel.embeddedEventLoop
        loop.advanceTime(by: .seconds(1))
        #expect(try Self.written(harness).first == 0x89, "a ping")
        try harness.read(.pong, "")
        loop.advanceTime(by: .seconds(2))  // ticks at 2 s and 3 s: read 1 s and 2 s ago
        let pings = try Self.written(harness)
        #expect(!harness.session.isClosing, "\(Self.text(pings))")
        loop.advanceTime(by: .seconds(1))  // 4 s: read 3 s ago, past the idle timeout
        let text = Self.text(try Self.written(harness))
        #expect(text.contains(WireErrorCode.heartbeatTimeout.rawValue), "\(text)")
        #expect(harness.session.isClosing)
        try harness.finish()
    }

    @Test("a ping is answered with a pong; the peer's close with its code, then the connection closes")
    func pingAndPeerClose() throws {
        let harness = try SessionHarness()
        try harness.read(.ping, "hi")
        #expect(try Self.written(harness) == [0x8A, 0x02] + Array("hi".utf8))
        var payload = ByteBuffer()
        payload.writeInteger(UInt16(1001))
        try harness.channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
        harness.channel.embeddedEventLoop.run()
        #expect(Self.closeCode(in: try Self.written(harness)) == 1001)
        #expect(!harness.channel.isActive)
        try harness.finish()
    }

    @Test("a slow consumer on an unwritable channel: 4008 after what was written, the connection reset after the grace")
    func slowConsumer() throws {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 4_096
        limits.slowConsumerAbortMilliseconds = 5_000
        let harness = try SessionHarness(limits: limits)
        harness.deliver(count: 1, bytes: 1_000)
        harness.channel.embeddedEventLoop.run()
        harness.channel.isWritable = false  // the reader stopped
        harness.channel.pipeline.fireChannelWritabilityChanged()
        harness.deliver(count: 3, bytes: 1_000)
        harness.channel.embeddedEventLoop.run()
        #expect(!harness.session.isClosing, "3,000 queued bytes are within the bound")
        #expect(harness.queuedBytes == 3_000)
        harness.deliver(count: 2, bytes: 1_000)
        harness.channel.embeddedEventLoop.run()
        let bytes = try Self.written(harness)
        #expect(harness.revisions(in: Self.text(bytes)) == [1], "the queue is dropped; what was in the socket stays")
        #expect(Self.text(bytes).contains(WireErrorCode.slowConsumer.rawValue))
        #expect(Self.closeCode(in: bytes) == 4008)
        #expect(harness.queuedBytes == 0)
        harness.channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(harness.channel.isActive, "the grace lets the reader take the close")
        harness.channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!harness.channel.isActive)
        try harness.finish()
    }
}
