import CompressNIO
public import NIOCore

/// Inflates one permessage-deflate message (RFC 7692 §7.2.2): appends `00 00 ff ff` to the compressed bytes and
/// inflates them with a 15-bit window (which reads any window a sender used), refusing to produce more than a
/// limit, so a small frame cannot expand into a memory bomb.
///
/// With no context taken over (all goald negotiates) each message is inflated on its own: the stream is reset
/// after every message, success or not.
///
/// Threading: not thread-safe (one zlib stream); its owner serializes calls. Lifetime: its owner's; a server
/// keeps none per session (it makes one per compressed message, which clients send rarely), a client keeps one.
public final class MessageInflater {
    private let decompressor: ZlibDecompressor

    public init() throws(PerMessageDeflateError) {
        do {
            decompressor = try ZlibDecompressor(algorithm: .deflate, windowSize: 15)
        } catch {
            throw .zlib("\(error)")
        }
    }

    /// The message that `compressed` (the concatenated payloads of its frames) stands for, at most `limit` bytes.
    public func inflate(
        _ compressed: ByteBuffer,
        limit: Int,
        allocator: ByteBufferAllocator
    )
        throws(PerMessageDeflateError) -> ByteBuffer
    {
        defer {
            // Resetting a stream zlib initialized cannot fail; if it ever did, the next message fails to inflate
            // and is reported then.
            try? decompressor.reset()  // see above
        }
        var input = allocator.buffer(capacity: compressed.readableBytes + 4)
        var compressed = compressed
        input.writeBuffer(&compressed)
        input.writeBytes([0, 0, 0xFF, 0xFF])
        var output = allocator.buffer(capacity: min(limit + 1, max(256, input.readableBytes * 4)))
        while true {
            do {
                try decompressor.inflate(from: &input, to: &output)
                // Z_OK with room left (all input used) or Z_STREAM_END (the sender ended with a BFINAL block).
                return try checked(output, limit: limit)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                // The output is full: grow it (doubling), unless it already holds more than the limit.
                guard output.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
                output.reserveCapacity(minimumWritableBytes: max(output.capacity, 256))
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                return try checked(output, limit: limit)  // every byte read, nothing more to write: complete
            } catch let error as PerMessageDeflateError {
                throw error
            } catch let error as CompressNIOError where error == .corruptData {
                throw .corruptData
            } catch {
                throw .zlib("\(error)")
            }
        }
    }

    private func checked(_ output: ByteBuffer, limit: Int) throws(PerMessageDeflateError) -> ByteBuffer {
        guard output.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
        return output
    }
}
