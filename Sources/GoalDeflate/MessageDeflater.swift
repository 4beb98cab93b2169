import CompressNIO
public import NIOCore

/// Compresses whole WebSocket messages for permessage-deflate with no context taken over (RFC 7692 §7.2.1):
/// raw DEFLATE, a sync flush, the trailing `00 00 ff ff` removed, and the stream reset before the next message, so
/// every output stands alone and the same bytes can go to every session.
///
/// Threading: not thread-safe (one zlib stream); its owner serializes calls. Lifetime: as long as its owner
/// (the zlib stream is freed on deinit).
public final class MessageDeflater {
    private let compressor: ZlibCompressor

    /// A deflater with a 15-bit window at `level` (1 fastest … 9 smallest).
    ///
    /// zlib's memory level 4 instead of its default 8: the stream is reset before every message, and a reset clears
    /// the match-finder's hash table, 64 KiB at level 8 and 4 KiB at 4. A changeset frame (about 1 KB) compresses
    /// to the same bytes either way (413 for a one-goal frame), and goald's CPU per delivery with 10 and 100
    /// compressing sessions dropped 2–9 % (docs/BENCHMARKS.md).
    public init(level: Int32 = 6) throws(PerMessageDeflateError) {
        do {
            compressor = try ZlibCompressor(
                algorithm: .deflate,
                configuration: ZlibConfiguration(
                    windowSize: Int32(PerMessageDeflate.serverWindowBits),
                    compressionLevel: level,
                    memoryLevel: 4,
                    strategy: .default
                )
            )
        } catch {
            throw .zlib("\(error)")
        }
    }

    /// Appends the compressed form of `payload`'s readable bytes to `output` and returns how many bytes it
    /// appended.
    @discardableResult
    public func compress(_ payload: ByteBuffer, into output: inout ByteBuffer) throws(PerMessageDeflateError) -> Int {
        var input = payload
        let start = output.writerIndex
        output.reserveCapacity(minimumWritableBytes: compressor.maxSize(from: input))
        do {
            try compressor.deflate(from: &input, to: &output, flush: .sync)
            try compressor.reset()
        } catch {
            output.moveWriterIndex(to: start)
            // A failed deflate leaves the stream mid-message; a reset makes the next message start clean. If the
            // reset fails too, the next compress fails the same way and is reported then.
            try? compressor.reset()  // see above: a second failure surfaces on the next call
            throw .zlib("\(error)")
        }
        // A sync flush ends with an empty stored block, 00 00 ff ff, which the receiver adds back (§7.2.2).
        let tail = output.getBytes(at: output.writerIndex - 4, length: 4)
        guard input.readableBytes == 0, output.writerIndex - start >= 4, tail == [0, 0, 0xFF, 0xFF] else {
            output.moveWriterIndex(to: start)
            throw .zlib("deflate did not end with a sync flush block")
        }
        output.moveWriterIndex(to: output.writerIndex - 4)
        return output.writerIndex - start
    }

    /// The compressed form of `payload` in a buffer of its own.
    public func compress(
        _ payload: [UInt8],
        allocator: ByteBufferAllocator
    ) throws(PerMessageDeflateError)
        -> ByteBuffer
    {
        var output = allocator.buffer(capacity: payload.count / 2 + 64)
        try compress(allocator.buffer(bytes: payload), into: &output)
        return output
    }
}
