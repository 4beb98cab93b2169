public import NIOCore
public import NIOWebSocket

/// Reads permessage-deflate on a connection that negotiated it: a data message whose first frame has RSV1 set is
/// gathered (all its fragments, at most `limit` compressed bytes), inflated on its own (no context taken over) and
/// passed on as one unfragmented frame with RSV1 clear; every other frame passes unchanged.
///
/// Sits after the frame decoder (and a server's frame validator) and before `NIOWebSocketFrameAggregator`, which
/// loses RSV1 when it joins fragments. The first error (RSV1 on a control frame or a continuation, a compressed
/// message interleaved with a new one, corrupt data, an inflated message over `limit`) is raised as a
/// `PerMessageDeflateError` through `errorCaught`, and nothing after it is read.
///
/// A server keeps no zlib state between messages (one inflater per compressed message); `keepsInflater` keeps one
/// for the connection's life (a client, which receives compressed messages all the time).
///
/// Threading: confined to its channel's event loop. Lifetime: one per connection.
public final class PerMessageInflateHandler: ChannelInboundHandler {
    public typealias InboundIn = WebSocketFrame
    public typealias InboundOut = WebSocketFrame

    private enum State {
        case idle
        /// Inside a fragmented uncompressed message: its continuations pass through.
        case plainMessage
        /// Inside a fragmented compressed message: its payload so far.
        case compressedMessage(opcode: WebSocketOpcode, payload: ByteBuffer)
        case failed
    }

    private let limit: Int
    private let keepsInflater: Bool
    private var kept: MessageInflater?
    private var state = State.idle

    /// - Parameters:
    ///   - limit: the largest message, compressed or inflated, in bytes.
    ///   - keepsInflater: keep one zlib stream for the connection instead of one per compressed message.
    public init(limit: Int, keepsInflater: Bool) {
        self.limit = limit
        self.keepsInflater = keepsInflater
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        do throws(PerMessageDeflateError) {
            if let inflated = try read(frame, allocator: context.channel.allocator) {
                context.fireChannelRead(wrapInboundOut(inflated))
            }
        } catch {
            state = .failed
            context.fireErrorCaught(error)
        }
    }

    /// The frame to pass on, or nil while a compressed message is incomplete (or after a failure).
    private func read(
        _ frame: WebSocketFrame,
        allocator: ByteBufferAllocator
    ) throws(PerMessageDeflateError)
        -> WebSocketFrame?
    {
        switch (state, frame.opcode) {
        case (.failed, _):
            return nil
        case (_, .ping), (_, .pong), (_, .connectionClose):
            guard !frame.rsv1 else { throw .misplacedRSV1("control") }
            return frame
        case (.compressedMessage(let opcode, var payload), .continuation):
            guard !frame.rsv1 else { throw .misplacedRSV1("continuation") }
            var data = frame.unmaskedData
            guard payload.readableBytes + data.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
            payload.writeBuffer(&data)
            guard frame.fin else {
                state = .compressedMessage(opcode: opcode, payload: payload)
                return nil
            }
            state = .idle
            return try inflated(opcode: opcode, payload: payload, allocator: allocator)
        case (.compressedMessage, _):
            throw .interleavedMessage
        case (_, .continuation):
            guard !frame.rsv1 else { throw .misplacedRSV1("continuation") }
            if frame.fin { state = .idle }
            return frame
        case (_, _) where frame.rsv1:
            let payload = frame.unmaskedData
            guard payload.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
            guard frame.fin else {
                state = .compressedMessage(opcode: frame.opcode, payload: payload)
                return nil
            }
            state = .idle
            return try inflated(opcode: frame.opcode, payload: payload, allocator: allocator)
        default:
            state = frame.fin ? .idle : .plainMessage
            return frame
        }
    }

    private func inflated(
        opcode: WebSocketOpcode,
        payload: ByteBuffer,
        allocator: ByteBufferAllocator
    )
        throws(PerMessageDeflateError) -> WebSocketFrame
    {
        let inflater: MessageInflater
        if let kept {
            inflater = kept
        } else {
            inflater = try MessageInflater()
            if keepsInflater { kept = inflater }
        }
        let message = try inflater.inflate(payload, limit: limit, allocator: allocator)
        return WebSocketFrame(fin: true, opcode: opcode, data: message)
    }
}
