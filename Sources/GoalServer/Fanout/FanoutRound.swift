import NIOCore

/// One fan-out round in progress on a loop: the merged batch, the sessions registered when the round began, each
/// session's replies, and how far the writing has got.
///
/// The shard writes a round in slices and lets the loop read between them, so a mutation arriving on a busy loop
/// waits for one slice, not for the whole round. Each session is handled in one visit: its changeset frames, then
/// its replies (so an ack still follows its changeset), then one flush, while its state is warm in the cache.
///
/// A session that registers after the round began is not in it: it noted the round's head at registration, so its
/// backlog covers the round's changesets. Replies only ever go to sessions registered before the batch was
/// decided, so a reply whose session is not in the round belongs to a session that has gone.
///
/// Threading: confined to the shard's event loop (not `Sendable`). Lifetime: from the round's start until its last
/// slice is written.
final class FanoutRound {
    let batch: DeliveryBatch
    private let sessions: [SessionHandler]
    private var replies: [SessionID: [ByteBuffer]]
    private var next = 0
    /// Time spent writing slices so far (not the time the loop spent on other work between them).
    private(set) var busy = TimeAmount.zero

    init(batch: DeliveryBatch, shard: Int, sessions: [SessionHandler]) {
        self.batch = batch
        self.sessions = sessions
        var replies: [SessionID: [ByteBuffer]] = [:]
        for reply in batch.replies[shard] ?? [] { replies[reply.session, default: []].append(reply.frame) }
        self.replies = replies
    }

    /// True once every session of the round has been written.
    var isFinished: Bool { next >= sessions.count }

    /// Sessions the round writes to.
    var sessionCount: Int { sessions.count }

    /// Writes the next `count` sessions (or all that are left).
    func writeSlice(_ count: Int) {
        let start = NIODeadline.now()
        let end = count >= sessions.count - next ? sessions.count : next + count
        while next < end {
            let session = sessions[next]
            next += 1
            if batch.hasFrames { session.deliverLive(batch) }
            if !replies.isEmpty, let frames = replies.removeValue(forKey: session.id) {
                for frame in frames { session.deliverReply(frame) }
            }
            session.flushIfNeeded()
        }
        busy = busy + (NIODeadline.now() - start)
    }
}
