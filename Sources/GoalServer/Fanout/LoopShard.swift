import CoreMetrics
import GoalModel
import GoalWire
import NIOCore

/// The sessions of one event loop and the live head as this loop has seen it. The hub sends each durable batch
/// to every shard with one `execute`; the shard writes the same frame buffer to each of its sessions and flushes
/// each once, so fan-out costs one task per loop per round, not one per session or frame.
///
/// Coalescing: a round's cost is almost all per session (a TLS record and a `write` each), not per changeset. So
/// after a round the shard pauses as long as that round took (at most `maxPause`): batches that become durable
/// meanwhile go out together in the next round, one write per session. An idle shard delivers at once; a busy one
/// spends at most about half its loop on fan-out and sends more changesets per write the busier it gets.
///
/// The shard's `head` is the hub-owned cursor of DESIGN.md: a session registers on its loop and notes the head
/// there, and every later batch reaches it on the same loop, so nothing falls between backlog and live.
///
/// Threading: `Sendable` for the hub; every method except `execute` must run on `eventLoop` (the state lives in
/// a `NIOLoopBoundBox`). Lifetime: the daemon's.
final class LoopShard: Sendable {
    /// What only the loop touches.
    final class State {
        var sessions: [SessionID: SessionHandler] = [:]
        var head: Revision
        var headDigest: Digest
        /// Batches waiting for the next round, in publication order.
        var pending: [DeliveryBatch] = []
        /// The next round, when one is scheduled.
        var scheduledRound: Scheduled<Void>?
        /// The earliest time the next round may start.
        var nextRoundAt = NIODeadline.uptimeNanoseconds(0)

        init(head: Revision, headDigest: Digest) {
            self.head = head
            self.headDigest = headDigest
        }
    }

    let index: Int
    let eventLoop: any EventLoop
    private let metrics: ServerMetrics
    private let box: NIOLoopBoundBox<State>
    /// The longest pause between rounds (`limits.fanoutCoalesceMilliseconds`); zero delivers every batch at once.
    private let maxPause: TimeAmount
    /// A fixed pause after every round instead (`DaemonTestHooks.fanoutPause`).
    private let fixedPause: TimeAmount?
    private let allocator = ByteBufferAllocator()

    init(
        index: Int,
        eventLoop: any EventLoop,
        head: Revision,
        headDigest: Digest,
        maxPause: TimeAmount,
        fixedPause: TimeAmount? = nil,
        metrics: ServerMetrics
    ) {
        self.index = index
        self.eventLoop = eventLoop
        self.maxPause = maxPause
        self.fixedPause = fixedPause
        self.metrics = metrics
        self.box = .makeBoxSendingValue(State(head: head, headDigest: headDigest), eventLoop: eventLoop)
    }

    /// Registers a session; returns the head it starts from (the newest revision delivered on this loop).
    func register(_ session: SessionHandler) -> (Revision, Digest) {
        let state = box.value
        state.sessions[session.id] = session
        return (state.head, state.headDigest)
    }

    func unregister(_ id: SessionID) {
        box.value.sessions[id] = nil
    }

    /// Takes a durable batch: delivers it now if the pause after the last round is over, else in the next round.
    func deliver(_ batch: DeliveryBatch) {
        let state = box.value
        state.pending.append(batch)
        guard state.scheduledRound == nil else { return }
        if NIODeadline.now() >= state.nextRoundAt {
            runRound()
        } else {
            state.scheduledRound = eventLoop.assumeIsolated().scheduleTask(deadline: state.nextRoundAt) {
                self.runRound()
            }
        }
    }

    /// Delivers the pending batches now (before closing sessions, so nothing durable is held back from them).
    func deliverPending() {
        if !box.value.pending.isEmpty { runRound() }
    }

    /// One round: the pending batches merged into one, written to every session, then the next pause.
    private func runRound() {
        let state = box.value
        state.scheduledRound?.cancel()
        state.scheduledRound = nil
        guard !state.pending.isEmpty else { return }
        let batches = state.pending
        state.pending = []
        let start = NIODeadline.now()
        metrics.fanoutRoundBatches.record(batches.count)
        write(DeliveryBatch.merging(batches, shard: index, allocator: allocator))
        let end = NIODeadline.now()
        state.nextRoundAt = end + (fixedPause ?? min(end - start, maxPause))
    }

    /// Writes a batch to every session of this loop, then its replies, then flushes each session once.
    private func write(_ batch: DeliveryBatch) {
        let state = box.value
        if batch.hasFrames {
            state.head = batch.head
            state.headDigest = batch.headDigest
            var written = 0
            for session in state.sessions.values {
                session.deliverLive(batch)
                written += 1
            }
            metrics.fanoutFrames.increment(by: Int64(written * batch.frameEnds.count))
            metrics.fanoutBytes.increment(by: Int64(written * batch.frames.readableBytes))
        }
        if let replies = batch.replies[index] {
            for reply in replies { state.sessions[reply.session]?.deliverReply(reply.frame) }
        }
        for session in state.sessions.values { session.flushIfNeeded() }
    }

    /// Closes one session with an error (session replaced, token revoked, shutdown).
    func close(_ id: SessionID, _ code: WireErrorCode, _ message: String) {
        deliverPending()
        box.value.sessions[id]?.fail(code, message)
    }

    /// Closes every session whose token matches.
    func closeSessions(where predicate: (SessionHandler) -> Bool, _ code: WireErrorCode, _ message: String) {
        deliverPending()
        for session in Array(box.value.sessions.values) where predicate(session) {
            session.fail(code, message)
        }
    }

    /// Evicts the session of this loop with the largest queue as a slow consumer (the global cap was passed).
    func evictLargestQueue() {
        guard let largest = box.value.sessions.values.max(by: { $0.queuedBytes < $1.queuedBytes }),
            largest.queuedBytes > 0
        else { return }
        largest.slowConsumer(
            reason: "the server's queued bytes passed their global cap and yours was the largest queue"
        )
    }

    /// Sessions on this loop now.
    var sessionCount: Int { box.value.sessions.count }
}
