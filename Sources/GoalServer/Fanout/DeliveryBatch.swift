import GoalModel
import NIOCore

/// One durable engine batch as the hub fans it out: the WebSocket frames of its changesets, concatenated in one
/// buffer that is built once and written unchanged to every `stream: all` session, and the replies (acks,
/// rejections) addressed to single sessions, each written right after the changeset it follows (`Reply.after`).
///
/// Value type, `Sendable`: the same storage is shared read-only by every event loop.
struct DeliveryBatch: Sendable {
    /// The changesets' frames in revision order; empty when the batch committed nothing.
    let frames: ByteBuffer
    /// The revision of the first frame in `frames` (meaningless when `frames` is empty).
    let firstRevision: Revision
    /// For frame i (revision `firstRevision + i`), the offset just past its end within `frames`' readable bytes.
    let frameEnds: [Int]
    /// The same changesets in the other variants (lean `delta` frames, permessage-deflate), each built once, by
    /// the first loop that needs it, for every session that takes it; a variant no session took when the batch was
    /// published is absent (such sessions then get `frames`).
    var variants = BatchVariants.none
    /// The head after this batch (the last commit's revision, or the unchanged head).
    let head: Revision
    /// d_head.
    let headDigest: Digest
    /// Replies by shard index, in the order the engine decided them.
    let replies: [Int: [Reply]]
    /// When the hub published the batch, just durable: where `goald_fanout_delay_seconds` starts.
    let durableAt: NIODeadline

    /// True when the batch carries at least one changeset.
    var hasFrames: Bool { !frameEnds.isEmpty }
}

/// One message for one session: its frame bytes, ready to write after the changeset of revision `after`.
struct Reply: Sendable {
    let session: SessionID
    let frame: ByteBuffer
    /// The changeset this reply must follow (its own commit for an ack; the head when it was decided otherwise).
    let after: Revision
}

/// A session's identity inside the daemon: unique for the process's life.
typealias SessionID = UInt64

/// Where a reply goes: the shard (event loop) of the session and the session.
struct ReplyAddress: Sendable, Hashable {
    let shard: Int
    let session: SessionID
}
