import GoalDeflate
import GoalStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import Synchronization

/// permessage-deflate for the fan-out: compresses each changeset frame **once**, so every session that negotiated
/// the extension gets the same compressed bytes (RFC 7692 with no context takeover, `PerMessageDeflate`).
///
/// A batch is compressed only while at least one live session wants compressed frames (`demand`), so a daemon
/// whose clients do not negotiate the extension pays nothing, and then by the first loop that needs it
/// (`DeflatedFrames`), never on the engine queue.
///
/// Threading: `Sendable`. `deflatedFrames` runs on an event loop; the zlib stream sits behind a lock, as loops
/// share it. `demand` is an atomic counter, changed on the loops.
/// Lifetime: the daemon's.
final class ChangesetCompression: @unchecked Sendable {
    // @unchecked: `deflater` is a non-Sendable zlib stream, touched only while holding `lock`.
    private let lock = NIOLock()
    private let deflater: MessageDeflater
    private let allocator = ByteBufferAllocator()
    private let logger: Logger
    /// Live sessions that negotiated permessage-deflate.
    private let sessions = Atomic<Int>(0)

    init(logger: Logger) throws(PerMessageDeflateError) {
        self.deflater = try MessageDeflater()
        self.logger = logger
    }

    /// A session that negotiated the extension registered (`true`) or left (`false`).
    func demand(_ added: Bool) {
        sessions.add(added ? 1 : -1, ordering: .relaxed)
    }

    /// True while some live session takes compressed frames.
    var isWanted: Bool { sessions.load(ordering: .relaxed) > 0 }

    /// The commits' frames compressed, each a text frame with RSV1 set, concatenated, with each frame's end offset;
    /// nil when zlib failed (the sessions then get the plain frames, which is always allowed).
    func deflatedFrames(of commits: [LoggedCommit]) -> (frames: ByteBuffer, ends: [Int])? {
        lock.withLock {
            var frames = allocator.buffer(capacity: commits.reduce(0) { $0 + $1.frame.count / 2 + 16 })
            var ends: [Int] = []
            ends.reserveCapacity(commits.count)
            var scratch = allocator.buffer(capacity: 4096)
            do {
                for commit in commits {
                    scratch.clear()
                    try deflater.compress(allocator.buffer(bytes: commit.frame), into: &scratch)
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
