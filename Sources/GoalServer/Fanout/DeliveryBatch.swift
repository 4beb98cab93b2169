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
    /// When the hub received the batch durable (for merged batches, the earliest): the fan-out delay's start.
    let durableAt: NIODeadline

    /// True when the batch carries at least one changeset.
    var hasFrames: Bool { !frameEnds.isEmpty }

    /// A loop's live window after `batch` arrived: this window's frames after `floor` (the lowest revision a live
    /// session of the loop may still have) followed by `batch`'s, in one buffer (copied once per loop, not per
    /// session), with `batch`'s head. Replies are not kept: the shard holds them per session. When nothing after
    /// `floor` is left, the window is `batch` itself, uncopied.
    func window(
        keepingAfter floor: Revision,
        adding batch: DeliveryBatch,
        allocator: ByteBufferAllocator
    )
        -> DeliveryBatch
    {
        guard batch.hasFrames else { return self }
        guard var kept = frames(after: floor) else { return batch }
        let firstKept = max(floor, firstRevision - 1) + 1
        let keptEnds = frameEnds[Int(firstKept - firstRevision)...].map {
            $0 - (frames.readableBytes - kept.readableBytes)
        }
        var merged = allocator.buffer(capacity: kept.readableBytes + batch.frames.readableBytes)
        merged.writeBuffer(&kept)
        var added = batch.frames
        let base = merged.readableBytes
        merged.writeBuffer(&added)
        return DeliveryBatch(
            frames: merged,
            firstRevision: firstKept,
            frameEnds: keptEnds + batch.frameEnds.map { base + $0 },
            head: batch.head,
            headDigest: batch.headDigest,
            replies: [:],
            durableAt: batch.durableAt
        )
    }

    /// True when the frames after `revision` are all here (or there are none): `revision` is at least the one
    /// before the first frame.
    func reaches(back revision: Revision) -> Bool {
        !hasFrames || revision >= head || revision + 1 >= firstRevision
    }

    /// The frames of every revision after `revision`, as a slice sharing this batch's storage; nil when none.
    /// Callers check `reaches(back:)` first: below it, the frames before `firstRevision` would be missing.
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
