import GoalDeflate
import GoalTestSupport
import GoalTransport
import NIOCore
import NIOWebSocket

/// Refuses unmasked client frames (RFC 6455 §5.1) before anything else sees them, noting "unmasked".
final class MaskCheckHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let observed: TestInbox<String>

    init(observed: TestInbox<String>) {
        self.observed = observed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard unwrapInboundIn(data).maskKey != nil else {
            observed.push("unmasked")
            let body = CloseFramePayload(code: 1002, reason: "unmasked").encoded(allocator: context.channel.allocator)
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: body)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.fireChannelRead(data)
    }
}

/// The scripted server side of one WebSocket. Text commands:
/// - `close:CODE[:REASON]`: the server starts a close handshake with that code.
/// - `ping:PAYLOAD`: the server pings; the client's pong is noted and answered with the text `pong:PAYLOAD`.
/// - `fragments:N:TEXT`: TEXT comes back as a text message in N fragments.
/// - `big:N`: a text message of N bytes comes back in one frame.
/// - `bigfragments:N:SIZE`: a text message of SIZE bytes comes back in N fragments.
/// - `drop`: the server closes TCP without a close frame.
/// - `deaf`: the server acknowledges with the text `deaf`, then never answers a close frame.
/// - `opcode:N`: the server sends a frame with opcode N (3–7 and 11–15 are reserved).
/// - `deflated:TEXT`: TEXT comes back compressed (permessage-deflate, RSV1 set), whatever was negotiated.
/// - `corrupt`: a text frame with RSV1 set whose payload is not DEFLATE data.
/// Anything else is echoed. Client pings get pongs; a client close is noted as `close:CODE` and echoed.
final class ServerFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let observed: TestInbox<String>
    private let greeting: String?
    private var sentClose = false
    private var deaf = false

    init(observed: TestInbox<String>, greeting: String? = nil) {
        self.observed = observed
        self.greeting = greeting
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let greeting {
            send(.text, context.channel.allocator.buffer(string: greeting), context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let payload = frame.unmaskedData
        switch frame.opcode {
        case .text:
            command(String(buffer: payload), context: context)
        case .binary:
            send(.binary, payload, context: context)
        case .ping:
            observed.push("ping:\(String(buffer: payload))")
            send(.pong, payload, context: context)
        case .pong:
            let text = String(buffer: payload)
            observed.push("pong:\(text)")
            send(.text, context.channel.allocator.buffer(string: "pong:\(text)"), context: context)
        case .connectionClose:
            let close = CloseFramePayload(decoding: payload)
            observed.push("close:\(close.code.map(String.init) ?? "none")")
            if deaf { return }
            let channel = context.channel
            if sentClose {
                channel.close(promise: nil)
            } else {
                let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
                context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
            }
        default:
            break
        }
    }

    private func command(_ text: String, context: ChannelHandlerContext) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let allocator = context.channel.allocator
        switch parts[0] {
        case "close" where parts.count >= 2:
            sentClose = true
            let body = CloseFramePayload(code: UInt16(parts[1])!, reason: parts.count > 2 ? parts[2] : "")
            send(.connectionClose, body.encoded(allocator: allocator), context: context)
        case "ping" where parts.count >= 2:
            send(.ping, allocator.buffer(string: parts[1]), context: context)
        case "fragments" where parts.count == 3:
            sendFragments(Array(parts[2].utf8), count: Int(parts[1])!, context: context)
        case "big" where parts.count == 2:
            send(.text, allocator.buffer(repeating: UInt8(ascii: "x"), count: Int(parts[1])!), context: context)
        case "bigfragments" where parts.count == 3:
            let bytes = [UInt8](repeating: UInt8(ascii: "y"), count: Int(parts[2])!)
            sendFragments(bytes, count: Int(parts[1])!, context: context)
        case "deaf":
            deaf = true
            send(.text, allocator.buffer(string: "deaf"), context: context)
        case "opcode" where parts.count == 2:
            let opcode = WebSocketOpcode(encodedWebSocketOpcode: UInt8(parts[1])!)!
            send(opcode, allocator.buffer(string: "?"), context: context)
        case "deflated" where parts.count >= 2:
            // The text after the first colon, whole.
            let message = String(text.dropFirst("deflated:".count))
            // zlib does not fail to start here; if it did, the empty payload would fail the test that asked.
            let compressed =
                (try? MessageDeflater().compress(Array(message.utf8), allocator: allocator))  // see above
                ?? allocator.buffer(capacity: 0)
            let frame = WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: compressed)
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        case "corrupt":
            let frame = WebSocketFrame(
                fin: true,
                rsv1: true,
                opcode: .text,
                data: allocator.buffer(bytes: [0xFF, 0xFF, 1])
            )
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        case "drop":
            context.close(promise: nil)
        default:
            send(.text, allocator.buffer(string: text), context: context)
        }
    }

    private func sendFragments(_ bytes: [UInt8], count: Int, context: ChannelHandlerContext) {
        let size = max(1, (bytes.count + count - 1) / count)
        var start = 0
        var index = 0
        while start < bytes.count || index == 0 {
            let end = min(bytes.count, start + size)
            let frame = WebSocketFrame(
                fin: end == bytes.count,
                opcode: index == 0 ? .text : .continuation,
                data: context.channel.allocator.buffer(bytes: bytes[start..<end])
            )
            context.write(wrapOutboundOut(frame), promise: nil)
            start = end
            index += 1
        }
        context.flush()
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }
}
