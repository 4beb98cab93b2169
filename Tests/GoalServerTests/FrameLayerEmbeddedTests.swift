import GoalTestSlots
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import GoalServer

/// The session's frame layer on an `EmbeddedChannel` (issue 14 points 4 and 13): frames in, what reaches the
/// session and what is raised out, with no socket and no clock.
@Suite("the frame layer on EmbeddedChannel: what reaches the session, what fails it", .slotted)
struct FrameLayerEmbeddedTests {
    /// Records what passes the layer and the first error raised through it.
    final class SessionStandIn: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var frames: [WebSocketFrame] = []
        var errors: [any Error] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            frames.append(unwrapInboundIn(data))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            errors.append(error)
        }
    }

    private func channel(_ session: SessionStandIn) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameValidator())
        try channel.pipeline.syncOperations.addHandler(FloodGuardHandler(framesPerSecond: 0.001, burst: 3))
        try channel.pipeline.syncOperations.addHandler(session)
        return channel
    }

    private func frame(
        _ opcode: WebSocketOpcode = .text,
        masked: Bool = true,
        rsv1: Bool = false,
        _ text: String = "{}"
    ) -> WebSocketFrame {
        WebSocketFrame(
            fin: true,
            rsv1: rsv1,
            opcode: opcode,
            maskKey: masked ? .random() : nil,
            data: ByteBuffer(string: text)
        )
    }

    private func violation(_ error: (any Error)?) -> String? {
        guard case .websocketProtocol(let text) = error as? SessionInboundError else { return nil }
        return text
    }

    @Test("masked frames pass; the first unmasked one is dropped, raised as a protocol error, and nothing follows")
    func unmasked() throws {
        let session = SessionStandIn()
        let channel = try channel(session)
        try channel.writeInbound(frame())
        try channel.writeInbound(frame(masked: false, #"{"type":"mutate"}"#))
        try channel.writeInbound(frame())
        #expect(session.frames.count == 1)
        #expect(violation(session.errors.first)?.contains("masked") == true)
        #expect(session.errors.count == 1)
    }

    @Test("RSV1 and a reserved opcode are refused the same way")
    func rsvAndReservedOpcode() throws {
        for bad in [frame(rsv1: true), frame(WebSocketOpcode(encodedWebSocketOpcode: 0xB)!)] {
            let session = SessionStandIn()
            let channel = try channel(session)
            try channel.writeInbound(bad)
            #expect(session.frames.isEmpty)
            #expect(violation(session.errors.first) != nil)
        }
    }

    @Test("the flood guard counts every frame, pings too: past the burst it raises flood and passes nothing more")
    func flood() throws {
        let session = SessionStandIn()
        let channel = try channel(session)
        for _ in 0..<3 { try channel.writeInbound(frame(.ping, "")) }
        try channel.writeInbound(frame())
        try channel.writeInbound(frame())
        #expect(session.frames.count == 3)
        guard case SessionInboundError.flood = try #require(session.errors.first) else {
            Issue.record("expected flood, got \(session.errors)")
            return
        }
        #expect(session.errors.count == 1)
    }
}
