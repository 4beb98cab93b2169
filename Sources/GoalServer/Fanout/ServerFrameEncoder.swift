import NIOCore
import NIOWebSocket

/// Writes server → client WebSocket frames (RFC 6455 §5.2: FIN set, never masked) straight into a `ByteBuffer`.
///
/// The fan-out path builds each changeset's complete frame bytes once and writes the same buffer to every
/// session, so it cannot go through `WebSocketFrameEncoder`, which encodes per channel. Control frames (ping,
/// pong, close) use the same writer so one code path frames everything the server sends.
/// Pure functions over the buffer passed in; safe from any thread.
enum ServerFrameEncoder {
    /// The header length for a payload of `length` bytes (2, 4 or 10).
    static func headerLength(payload length: Int) -> Int {
        if length < 126 { return 2 }
        if length <= Int(UInt16.max) { return 4 }
        return 10
    }

    /// Appends one unfragmented, unmasked frame.
    static func write(opcode: WebSocketOpcode, payload: some Collection<UInt8>, into buffer: inout ByteBuffer) {
        writeHeader(opcode: opcode, length: payload.count, into: &buffer)
        buffer.writeBytes(payload)
    }

    /// Appends one unfragmented, unmasked frame whose payload is the readable bytes of `payload`.
    static func write(opcode: WebSocketOpcode, payload: ByteBuffer, into buffer: inout ByteBuffer) {
        writeHeader(opcode: opcode, length: payload.readableBytes, into: &buffer)
        var payload = payload
        buffer.writeBuffer(&payload)
    }

    /// Appends the header of an unfragmented, unmasked frame of `length` payload bytes; `compressed` sets RSV1, which
    /// marks a permessage-deflate message (RFC 7692 §6).
    static func writeHeader(
        opcode: WebSocketOpcode,
        length: Int,
        compressed: Bool = false,
        into buffer: inout ByteBuffer
    ) {
        buffer.writeInteger(UInt8(0x80) | (compressed ? 0x40 : 0) | UInt8(webSocketOpcode: opcode))
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
    }

    /// Text frames of several messages, concatenated in one buffer, with each frame's end offset.
    static func textFrames(_ messages: [[UInt8]], allocator: ByteBufferAllocator) -> (frames: ByteBuffer, ends: [Int]) {
        var frames = allocator.buffer(capacity: messages.reduce(0) { $0 + $1.count + 10 })
        var ends: [Int] = []
        ends.reserveCapacity(messages.count)
        for message in messages {
            write(opcode: .text, payload: message, into: &frames)
            ends.append(frames.readableBytes)
        }
        return (frames, ends)
    }

    /// One text frame carrying `message`, in a buffer of its own.
    static func textFrame(_ message: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: message.count + headerLength(payload: message.count))
        write(opcode: .text, payload: message, into: &buffer)
        return buffer
    }

    /// A close frame with `code` and a UTF-8 reason (cut to fit the 125-byte control-frame limit).
    static func closeFrame(code: UInt16, reason: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let reasonBytes = Array(reason.utf8.prefix(123))
        var buffer = allocator.buffer(capacity: 4 + reasonBytes.count)
        writeHeader(opcode: .connectionClose, length: 2 + reasonBytes.count, into: &buffer)
        buffer.writeInteger(code)
        buffer.writeBytes(reasonBytes)
        return buffer
    }

    /// A ping or pong frame with at most 125 payload bytes.
    static func controlFrame(
        _ opcode: WebSocketOpcode,
        payload: ByteBuffer,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var payload = payload
        if payload.readableBytes > 125 { payload = payload.getSlice(at: payload.readerIndex, length: 125)! }
        var buffer = allocator.buffer(capacity: 2 + payload.readableBytes)
        write(opcode: opcode, payload: payload, into: &buffer)
        return buffer
    }
}
