import GoalModel
import NIOCore

/// One durable engine batch as the hub fans it out: the WebSocket frames of its changesets, concatenated in one
/// buffer that is built once and written unchanged to every `stream: all` session, and the replies (acks,
/// rejections) addressed to single sessions, written after the frames so an author's ack follows its changeset.
///
/// Value type, `Sendable`: the same storage is shared read-only by every event loop.
struct DeliveryBatch: Sendable {
    /// The changesets' frames in revision order; empty when the batch committed nothing.
    let frames: ByteBuffer
    /// The revision of the first frame in `frames` (meaningless when `frames` is empty).
    let firstRevision: Revision
    /// For frame i (revision `firstRevision + i`), the offset just past its end within `frames`' readable bytes.
    let frameEnds: [Int]
    /// The head after this batch (the last commit's revision, or the unchanged head).
    let head: Revision
    /// d_head.
    let headDigest: Digest
    /// Replies by shard index, in the order the engine decided them.
    let replies: [Int: [Reply]]

    /// True when the batch carries at least one changeset.
    var hasFrames: Bool { !frameEnds.isEmpty }

    /// Consecutive batches as one, for the shard `shard`: their frames in one buffer (copied once per shard, not
    /// per session), the last head, and this shard's replies in order (each still after its changeset).
    /// `batches` must be non-empty and in publication order.
    static func merging(_ batches: [DeliveryBatch], shard: Int, allocator: ByteBufferAllocator) -> DeliveryBatch {
        if batches.count == 1 { return batches[0] }
        let framed = batches.filter(\.hasFrames)
        var frames = allocator.buffer(capacity: framed.reduce(0) { $0 + $1.frames.readableBytes })
        var ends: [Int] = []
        ends.reserveCapacity(framed.reduce(0) { $0 + $1.frameEnds.count })
        for batch in framed {
            let base = frames.readableBytes
            var bytes = batch.frames
            frames.writeBuffer(&bytes)
            ends.append(contentsOf: batch.frameEnds.lazy.map { base + $0 })
        }
        let replies = batches.flatMap { $0.replies[shard] ?? [] }
        let last = batches[batches.count - 1]
        return DeliveryBatch(
            frames: frames,
            firstRevision: framed.first?.firstRevision ?? 0,
            frameEnds: ends,
            head: last.head,
            headDigest: last.headDigest,
            replies: replies.isEmpty ? [:] : [shard: replies]
        )
    }

    /// The frames of every revision after `revision`, as a slice sharing this batch's storage; nil when none.
    func frames(after revision: Revision) -> ByteBuffer? {
        guard hasFrames, revision < head else { return nil }
        if revision < firstRevision { return frames }
        let index = Int(revision - firstRevision)  // frames[0...index] are ≤ revision
        let start = frameEnds[index]
        return frames.getSlice(at: frames.readerIndex + start, length: frames.readableBytes - start)
    }
}

/// One message for one session: its frame bytes, ready to write.
struct Reply: Sendable {
    let session: SessionID
    let frame: ByteBuffer
}

/// A session's identity inside the daemon: unique for the process's life.
typealias SessionID = UInt64

/// Where a reply goes: the shard (event loop) of the session and the session.
struct ReplyAddress: Sendable, Hashable {
    let shard: Int
    let session: SessionID
}
