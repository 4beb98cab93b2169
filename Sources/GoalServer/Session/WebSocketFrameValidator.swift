import NIOCore
import NIOWebSocket

/// Refuses the frames RFC 6455 forbids a client to send, which NIOWebSocket's decoder lets through: an unmasked
/// frame (§5.1), RSV bits without a negotiated extension (§5.2), a reserved opcode (§5.2). With permessage-deflate
/// negotiated, RSV1 may open a text or binary message (RFC 7692 §6); on any other frame it is still refused. The first such frame
/// is dropped, never acted on, and raises `SessionInboundError.websocketProtocol` so the session fails with 1002;
/// nothing after it is read. (Fragmented or >125-byte control frames are refused by the decoder itself, and
/// fragment order by the aggregator; the session maps both to 1002 too.) Hand-written because no listed library
/// checks these rules on the server side.
///
/// Sits right after the frame decoder, before the flood guard and the aggregator.
///
/// Threading: confined to its channel's event loop. Lifetime: one per upgraded connection.
final class WebSocketFrameValidator: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var refused = false
    private let allowsCompressedMessages: Bool

    /// - Parameter allowsCompressedMessages: permessage-deflate was negotiated on this connection.
    init(allowsCompressedMessages: Bool = false) {
        self.allowsCompressedMessages = allowsCompressedMessages
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let frame = unwrapInboundIn(data)
        if let violation = Self.violation(in: frame, allowsCompressedMessages: allowsCompressedMessages) {
            refused = true
            context.fireErrorCaught(SessionInboundError.websocketProtocol(violation))
            return
        }
        context.fireChannelRead(data)
    }

    /// What is wrong with a client frame, or nil.
    static func violation(in frame: WebSocketFrame, allowsCompressedMessages: Bool = false) -> String? {
        if frame.maskKey == nil { return "client frames must be masked (RFC 6455 §5.1)" }
        let opensMessage = frame.opcode == .text || frame.opcode == .binary
        if frame.rsv1, !frame.rsv2, !frame.rsv3, allowsCompressedMessages {
            if !opensMessage { return "RSV1 is set on a frame that does not open a message (RFC 7692 §6)" }
        } else if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            return "RSV bits are set but no extension was negotiated (RFC 6455 §5.2)"
        }
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: return nil
        default: return "reserved opcode \(frame.opcode) (RFC 6455 §5.2)"
        }
    }
}
