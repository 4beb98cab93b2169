import GoalModel
import NIOCore

/// The changeset frames that one loop's live sessions may still need: revisions (floor, head] in one buffer that
/// grows at its end as batches arrive and is trimmed at its front as the loop's floor rises. A visit hands a
/// session the slice after its `sent`: the same bytes for every session, one write each.
///
/// Appending writes in place while the buffer is held nowhere else; a visit's slice is released once NIO has
/// written it, so this is the usual case. While a session still holds one (its socket was full), the next append
/// copies the kept frames once for the whole loop, never per session. Trimming only moves the reader index; the dead
/// prefix is reclaimed once it outgrows the live part, so the cost per arrival is the batch's own bytes.
///
/// Value type, confined to its shard's event loop with the rest of the shard's state.
struct LiveWindow {
    /// The frames of revisions `firstRevision...head`, in order, as readable bytes.
    private(set) var frames: ByteBuffer
    /// The revision of the first readable frame (`head + 1` when there is none).
    private(set) var firstRevision: Revision
    /// The newest revision that reached the loop.
    private(set) var head: Revision
    /// For frame i (revision `firstRevision + i`), the buffer index just past its end (absolute, like
    /// `writerIndex`).
    private var frameEnds: [Int] = []

    /// An empty window at `head`.
    init(head: Revision, allocator: ByteBufferAllocator) {
        self.frames = allocator.buffer(capacity: 0)
        self.firstRevision = head + 1
        self.head = head
    }

    /// Drops the frames of revisions ≤ `floor`, then appends `batch`'s frames and takes its head. A batch without
    /// frames changes nothing.
    mutating func append(_ batch: DeliveryBatch, keepingAfter floor: Revision) {
        append(
            frames: batch.frames,
            ends: batch.frameEnds,
            firstRevision: batch.firstRevision,
            head: batch.head,
            keepingAfter: floor
        )
    }

    /// `append(_:keepingAfter:)` for the batch's frames of an optional variant, building them if no loop did yet;
    /// when not `wanted` (no session of this loop takes them), or the batch has none or they could not be built,
    /// the window is emptied at the batch's head instead, so it never holds a gap (its sessions then take the full
    /// window until this one reaches back).
    mutating func append(
        _ variant: VariantFrames?,
        of batch: DeliveryBatch,
        keepingAfter floor: Revision,
        wanted: Bool
    ) {
        guard batch.hasFrames else { return }
        guard wanted, let built = variant?.frames() else {
            trim(keepingAfter: head)
            head = batch.head
            firstRevision = head + 1
            return
        }
        append(
            frames: built.frames,
            ends: built.ends,
            firstRevision: batch.firstRevision,
            head: batch.head,
            keepingAfter: floor
        )
    }

    private mutating func append(
        frames batchFrames: ByteBuffer,
        ends batchEnds: [Int],
        firstRevision batchFirst: Revision,
        head batchHead: Revision,
        keepingAfter floor: Revision
    ) {
        guard !batchEnds.isEmpty else { return }
        if batchFirst != head + 1 {
            // Not the next revision (batches reach every loop in order, so this is a bug): start afresh, and let
            // `reaches(back:)` send anyone older to the log rather than past a gap.
            trim(keepingAfter: head)
            firstRevision = batchFirst
        } else {
            trim(keepingAfter: floor)
        }
        var added = batchFrames
        let base = frames.writerIndex
        frames.writeBuffer(&added)
        frameEnds.append(contentsOf: batchEnds.lazy.map { base + $0 })
        head = batchHead
    }

    /// True when every frame after `revision` is here (or `revision` is at the head or past it).
    func reaches(back revision: Revision) -> Bool {
        revision >= head || revision + 1 >= firstRevision
    }

    /// The frames of every revision after `revision` up to `last` (the head by default), as a slice sharing this
    /// window's storage; nil when none. Callers check `reaches(back:)` first: below it, the frames before
    /// `firstRevision` would be missing.
    func frames(after revision: Revision, through last: Revision? = nil) -> ByteBuffer? {
        let last = min(last ?? head, head)
        guard revision < last, !frameEnds.isEmpty, last >= firstRevision else { return nil }
        let start = revision < firstRevision ? frames.readerIndex : frameEnds[Int(revision - firstRevision)]
        let end = frameEnds[Int(last - firstRevision)]
        return frames.getSlice(at: start, length: end - start)
    }

    private mutating func trim(keepingAfter floor: Revision) {
        guard floor >= firstRevision, !frameEnds.isEmpty else { return }
        guard floor < head else {
            frames.clear()
            frameEnds.removeAll(keepingCapacity: true)
            firstRevision = head + 1
            return
        }
        let dropped = Int(floor - firstRevision) + 1
        frames.moveReaderIndex(to: frameEnds[dropped - 1])
        frameEnds.removeFirst(dropped)
        firstRevision = floor + 1
        if frames.readerIndex > Self.reclaimThreshold, frames.readerIndex > frames.readableBytes {
            let shift = frames.readerIndex
            frames.discardReadBytes()
            for index in frameEnds.indices { frameEnds[index] -= shift }
        }
    }

    /// Dead bytes at the front worth a move (and more than the live part).
    static let reclaimThreshold = 64 * 1024
}
