import GoalDeflate
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// permessage-deflate for the fan-out: compresses each changeset frame **once**, so every session that negotiated
/// the extension gets the same compressed bytes (RFC 7692 with no context takeover, `PerMessageDeflate`).
///
/// A batch is compressed only while at least one live session wants compressed frames (`VariantDemand`), so a
/// daemon whose clients do not negotiate the extension pays nothing, and then by the first loop that needs it
/// (`VariantFrames`), never on the engine queue.
///
/// Threading: `Sendable`. `deflatedFrames` runs on an event loop; the zlib stream sits behind a lock, as loops
/// share it.
/// Lifetime: the daemon's.
final class ChangesetCompression: @unchecked Sendable {
    // @unchecked: `deflater` is a non-Sendable zlib stream, touched only while holding `lock`.
    private let lock = NIOLock()
    private let deflater: MessageDeflater
    private let allocator = ByteBufferAllocator()
    private let logger: Logger

    init(logger: Logger) throws(PerMessageDeflateError) {
        self.deflater = try MessageDeflater()
        self.logger = logger
    }

    /// The messages compressed, each a text frame with RSV1 set, concatenated, with each frame's end offset; nil
    /// when zlib failed (the sessions then get the full plain frames, which is always allowed).
    func deflatedFrames(of messages: [[UInt8]]) -> (frames: ByteBuffer, ends: [Int])? {
        lock.withLock {
            var frames = allocator.buffer(capacity: messages.reduce(0) { $0 + $1.count / 2 + 16 })
            var ends: [Int] = []
            ends.reserveCapacity(messages.count)
            var scratch = allocator.buffer(capacity: 4096)
            do {
                for message in messages {
                    scratch.clear()
                    try deflater.compress(allocator.buffer(bytes: message), into: &scratch)
                    ServerFrameEncoder.writeHeader(
                        opcode: .text,
                        length: scratch.readableBytes,
                        compressed: true,
                        into: &frames
                    )
                    frames.writeImmutableBuffer(scratch)
                    ends.append(frames.readableBytes)
                }
            } catch {
                logger.error(
                    "compressing changesets failed; sending them uncompressed",
                    metadata: ["goal.error": "\(error)"]
                )
                return nil
            }
            return (frames, ends)
        }
    }
}
