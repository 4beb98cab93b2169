import CoreMetrics
import GoalModel
import GoalWire
import NIOCore

/// The sessions of one event loop and the live head as this loop has seen it. The hub sends each durable batch
/// to every shard with one `execute`; the shard writes the same frame buffer to each of its sessions and flushes
/// each once, so fan-out costs a few tasks per loop per round (`FanoutRound`, written in slices of `sliceSize`
/// sessions so the loop reads in between), not one per session or frame.
///
/// Coalescing: a round's cost is almost all per session (a TLS record and a `write` each), not per changeset. So
/// after a round the shard pauses as long as writing it took (at most `maxPause`): batches that become durable
/// meanwhile go out together in the next round, one write per session. An idle shard delivers at once; a busy one
/// spends at most about half its loop on fan-out and sends more changesets per write the busier it gets. Rounds
/// never overlap, so every session sees revisions in order.
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
        /// The round being written, slice by slice.
        var round: FanoutRound?
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

    /// Takes a durable batch: delivers it now if no round is running and the pause after the last one is over,
    /// else in the next round.
    func deliver(_ batch: DeliveryBatch) {
        let state = box.value
        state.pending.append(batch)
        scheduleRound()
    }

    /// Writes the running round to its end and the pending batches in one more, now (before closing sessions, so
    /// nothing durable is held back from them).
    func deliverPending() {
        let state = box.value
        while state.round != nil || !state.pending.isEmpty {
            if state.round == nil { beginRound() }
            state.round?.writeSlice(Int.max)
            endRound()
        }
    }

    /// Starts the next round now, or schedules it for the end of the pause, unless one is running or scheduled.
    private func scheduleRound() {
        let state = box.value
        guard state.round == nil, state.scheduledRound == nil, !state.pending.isEmpty else { return }
        if NIODeadline.now() >= state.nextRoundAt {
            beginRound()
            continueRound()
        } else {
            state.scheduledRound = eventLoop.assumeIsolated().scheduleTask(deadline: state.nextRoundAt) {
                self.box.value.scheduledRound = nil
                guard self.box.value.round == nil, !self.box.value.pending.isEmpty else { return }
                self.beginRound()
                self.continueRound()
            }
        }
    }

    /// Merges the pending batches, moves this loop's head to theirs and starts a round to every session now here.
    private func beginRound() {
        let state = box.value
        state.scheduledRound?.cancel()
        state.scheduledRound = nil
        let batches = state.pending
        state.pending = []
        metrics.fanoutRoundBatches.record(batches.count)
        let batch = DeliveryBatch.merging(batches, shard: index, allocator: allocator)
        if batch.hasFrames {
            state.head = batch.head
            state.headDigest = batch.headDigest
        }
        state.round = FanoutRound(batch: batch, shard: index, sessions: Array(state.sessions.values))
    }

    /// Writes one slice of the running round; the next slice runs as a new task, after the loop's pending I/O.
    private func continueRound() {
        let state = box.value
        guard let round = state.round else { return }
        round.writeSlice(Self.sliceSize)
        if round.isFinished {
            endRound()
            scheduleRound()
        } else {
            eventLoop.assumeIsolated().execute {
                guard self.box.value.round === round else { return }  // finished early by `deliverPending`
                self.continueRound()
            }
        }
    }

    /// Records the finished round and sets the pause: as long as the round's writing took, at most `maxPause`.
    private func endRound() {
        let state = box.value
        guard let round = state.round else { return }
        state.round = nil
        if round.batch.hasFrames {
            let sessions = Int64(round.sessionCount)
            metrics.fanoutFrames.increment(by: sessions * Int64(round.batch.frameEnds.count))
            metrics.fanoutBytes.increment(by: sessions * Int64(round.batch.frames.readableBytes))
        }
        metrics.fanoutRoundDuration.recordNanoseconds(round.busy.nanoseconds)
        state.nextRoundAt = .now() + (fixedPause ?? min(round.busy, maxPause))
    }

    /// Sessions written per slice of a round (~1 ms of writing on loopback TLS).
    static let sliceSize = 64

    /// Closes one session with an error (a replaced session: its client instance has moved on, so it is not worth
    /// finishing a round for; the round skips it once it is closing).
    func close(_ id: SessionID, _ code: WireErrorCode, _ message: String) {
        box.value.sessions[id]?.fail(code, message)
    }

    /// Closes every session the predicate picks (revoked tokens, shutdown), after finishing the running and
    /// pending rounds so nothing durable is held back from them.
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
