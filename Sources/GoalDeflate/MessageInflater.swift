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
        // The message, then the 00 00 ff ff the sender removed: fed one after the other, so the message is not
        // copied to append four bytes.
        var pieces = [compressed, Self.syncFlushTail]
        var output = allocator.buffer(capacity: min(limit + 1, max(256, compressed.readableBytes * 4)))
        for index in pieces.indices {
            while pieces[index].readableBytes > 0 {
                do {
                    try decompressor.inflate(from: &pieces[index], to: &output)
                    // Returned with this piece not all read: the stream ended (a BFINAL block, §7.2.3.3).
                    if pieces[index].readableBytes > 0 { return try checked(output, limit: limit) }
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    // The output is full: grow it (doubling), unless it already holds more than the limit.
                    guard output.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
                    output.reserveCapacity(minimumWritableBytes: max(output.capacity, 256))
                } catch let error as CompressNIOError where error == .inputBufferOverflow {
                    break  // every byte of this piece read, nothing more to write from it
                } catch let error as PerMessageDeflateError {
                    throw error
                } catch let error as CompressNIOError where error == .corruptData {
                    throw .corruptData
                } catch {
                    throw .zlib("\(error)")
                }
            }
        }
        return try checked(output, limit: limit)
    }

    /// The empty stored block a sync flush ends with (RFC 7692 §7.2.2).
    private static let syncFlushTail = ByteBuffer(bytes: [0, 0, 0xFF, 0xFF])

    private func checked(_ output: ByteBuffer, limit: Int) throws(PerMessageDeflateError) -> ByteBuffer {
        guard output.readableBytes <= limit else { throw .messageTooLarge(limit: limit) }
        return output
    }
}
