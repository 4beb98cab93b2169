import CoreMetrics
import GoalModel
import GoalWire
import NIOCore

/// The sessions of one event loop, the live head as this loop has seen it, and the loop's rolling fan-out.
///
/// Rolling rounds: a round walks the loop's sessions in slices of `sliceSize` (a task each, so the loop reads
/// mutations, pings and hellos in between). Each visit writes the session everything in the loop's live window
/// after its `sent` — the same bytes for every session, one TLS record and one `write` — with each of its replies
/// right after the changeset it follows (an ack after its own commit), then one flush. A batch that arrives mid-round joins the window at once, so the sessions the round has not reached get it
/// in this round and the others in the next: a changeset waits at most about one round, not for the round to
/// start and then for its turn in it. A round ends after one pass; another follows while the head moved or replies
/// wait, else the shard rests and the next batch starts a round at once.
///
/// Pacing (`SlicePacing`): a round's cost is almost all per session, not per changeset. After each slice, while
/// two or more batches that arrived since the round began wait, the shard pauses as long as the slice's CPU time on
/// this thread (at most `maxPause`; not its wall time, which preemption by other processes would stretch, doubling
/// the pass), so fan-out takes about half the loop at most, and the busier the daemon the more changesets each write
/// carries. Otherwise slices follow each other at once: a lone changeset reaches every session as fast as the loop
/// can write.
///
/// The window holds the frames after the loop's floor: the head when the previous round began. Every live
/// session has at least that: it was visited since, or registered, or went live, later (a session goes live only
/// at the loop's head). Appending a batch writes its frames once per loop, never per session (`LiveWindow`).
///
/// The shard's `head` is the hub-owned cursor of docs/PROTOCOL.md §8 (guarantee 3): a session registers on its
/// loop and notes the head there, and every later batch reaches it on the same loop, so nothing falls between
/// backlog and live.
///
/// Threading: `Sendable` for the hub; every method except `execute` must run on `eventLoop` (the state lives in
/// a `NIOLoopBoundBox`). Lifetime: the daemon's.
final class LoopShard: Sendable {
    /// What only the loop touches.
    final class State {
        /// The sessions in visiting order, and by id.
        var order: [SessionHandler] = []
        var byID: [SessionID: SessionHandler] = [:]
        /// The digest at the window's head (the newest revision that reached this loop).
        var headDigest: Digest
        /// The frames after `floor` up to the head, one window per `FrameVariant` (by its raw value): the full
        /// plain frames, and the same changesets in each optional variant for the sessions that take it, which may
        /// start later (a variant is built only while such a session is live).
        var windows: [LiveWindow]
        /// The full plain frames; `window.head` is the loop's head.
        var window: LiveWindow { windows[FrameVariant.full.rawValue] }
        /// The registered sessions that take an optional variant (each counted once in the hub's demand).
        var variantOf: [SessionID: FrameVariant] = [:]
        /// How many of them take each variant (by raw value).
        var variantCounts = [Int](repeating: 0, count: FrameVariant.allCases.count)
        /// The lowest revision a live session of this loop may have.
        var floor: Revision
        /// Replies waiting for their session's next visit, in the order the engine decided them.
        var replies: [SessionID: [Reply]] = [:]
        /// The round in progress (also between its slices).
        var round: FanoutRound?
        /// The next slice or round, when one is scheduled.
        var scheduled: Scheduled<Void>?
        /// The next slice or round, when a test's gate holds it.
        var gateHeld = false
        /// With a test's gate: a slice ran, so the next one waits for a permit.
        var pauseOwed = false
        /// The earliest time the next slice (or round) may be written.
        var nextSliceAt = NIODeadline.uptimeNanoseconds(0)
        /// Batches that arrived since the last round began, and when the first of them became durable.
        var arrivals = 0
        var oldestArrival: NIODeadline?

        init(head: Revision, headDigest: Digest) {
            self.headDigest = headDigest
            self.floor = head
            self.windows = FrameVariant.allCases.map { _ in LiveWindow(head: head, allocator: ByteBufferAllocator()) }
        }
    }

    let index: Int
    let eventLoop: any EventLoop
    private let metrics: ServerMetrics
    let box: NIOLoopBoundBox<State>
    /// How long to rest after a slice (at most `limits.fanoutCoalesceMilliseconds`).
    private let pacing: SlicePacing
    /// A test's gate: the slice after a slice waits for its permit instead of a pause (`DaemonParts.sliceGate`).
    private let gate: (any FanoutSliceGate)?
    /// Told when a session that takes an optional frame variant registers or leaves.
    private let demand: VariantDemand?

    init(
        index: Int,
        eventLoop: any EventLoop,
        head: Revision,
        headDigest: Digest,
        maxPause: TimeAmount,
        gate: (any FanoutSliceGate)? = nil,
        demand: VariantDemand? = nil,
        metrics: ServerMetrics
    ) {
        self.demand = demand
        self.index = index
        self.eventLoop = eventLoop
        self.pacing = SlicePacing(maxPause: maxPause)
        self.gate = gate
        self.metrics = metrics
        self.box = .makeBoxSendingValue(State(head: head, headDigest: headDigest), eventLoop: eventLoop)
    }

    /// Registers a session; returns the head it starts from (the newest revision that reached this loop).
    func register(_ session: SessionHandler) -> (Revision, Digest) {
        let state = box.value
        state.byID[session.id] = session
        state.order.append(session)
        let variant = session.frameVariant
        if variant != .full, state.variantOf.updateValue(variant, forKey: session.id) == nil {
            state.variantCounts[variant.rawValue] += 1
            demand?.change(variant, added: true)
        }
        return (state.window.head, state.headDigest)
    }

    func unregister(_ id: SessionID) {
        let state = box.value
        guard state.byID.removeValue(forKey: id) != nil else { return }
        if let variant = state.variantOf.removeValue(forKey: id) {
            state.variantCounts[variant.rawValue] -= 1
            demand?.change(variant, added: false)
        }
        state.replies[id] = nil
        if let position = state.order.firstIndex(where: { $0.id == id }) { state.order.remove(at: position) }
    }

    /// The newest revision that reached this loop: a catching-up session goes live only here.
    var head: Revision { box.value.window.head }

    /// Takes a durable batch: its frames join the window and its replies wait for their sessions' visits; a
    /// resting shard starts a round now (or when the pause after the last slice ends).
    func deliver(_ batch: DeliveryBatch) {
        let state = box.value
        if batch.hasFrames {
            state.windows[FrameVariant.full.rawValue].append(batch, keepingAfter: state.floor)
            for variant in FrameVariant.optional {
                state.windows[variant.rawValue].append(
                    batch.variants[variant],
                    of: batch,
                    keepingAfter: state.floor,
                    wanted: state.variantCounts[variant.rawValue] > 0
                )
            }
            state.headDigest = batch.headDigest
        }
        for reply in batch.replies[index] ?? [] where state.byID[reply.session] != nil {
            state.replies[reply.session, default: []].append(reply)
        }
        state.arrivals += 1
        state.oldestArrival = state.oldestArrival ?? batch.durableAt
        guard state.round == nil, state.scheduled == nil, !state.gateHeld else { return }
        if NIODeadline.now() >= state.nextSliceAt, !state.pauseOwed {
            beginRound()
            writeSlice()
        } else {
            schedule(at: state.nextSliceAt, beginning: true)
        }
    }

    /// Visits every session now, so everything that reached this loop is written (before closing sessions).
    func deliverPending() {
        let state = box.value
        var written = (frames: 0, bytes: 0)
        for session in state.order {
            let visit = self.visit(session, state)
            written.frames += visit.frames
            written.bytes += visit.bytes
        }
        countWritten(written.frames, written.bytes)
    }

    /// Starts a round: one pass over the sessions the loop has now.
    private func beginRound() {
        let state = box.value
        state.floor = state.round?.startHead ?? state.floor
        metrics.fanoutRoundBatches.record(state.arrivals)
        state.round = FanoutRound(
            startHead: state.window.head,
            sessions: state.order,
            oldestDurable: state.oldestArrival
        )
        state.arrivals = 0
        state.oldestArrival = nil
    }

    /// Writes the next slice of the running round, then pauses as long as it took before the next slice, or ends
    /// the round.
    private func writeSlice() {
        let state = box.value
        guard let round = state.round else { return }
        let start = NIODeadline.now()
        let cpuStart = ThreadCPUClock.nanoseconds()
        var visits = 0
        while visits < Self.sliceSize, !round.isFinished {
            let session = round.sessions[round.next]
            round.next += 1
            visits += 1
            let written = visit(session, state)
            round.frames += written.frames
            round.bytes += written.bytes
        }
        let end = NIODeadline.now()
        let busy = end - start
        round.busy = round.busy + busy
        let cpu = TimeAmount.nanoseconds(ThreadCPUClock.nanoseconds() - cpuStart)
        let pause = pacing.pause(afterSliceCPU: cpu, waitingBatches: state.arrivals)
        state.nextSliceAt = end + (gate == nil ? pause : .zero)
        state.pauseOwed = gate != nil
        if round.isFinished {
            endRound(round)
            guard state.window.head > round.startHead || !state.replies.isEmpty else {
                state.floor = state.window.head  // every session has the head: the window can start afresh
                state.round = nil
                return
            }
            schedule(at: state.nextSliceAt, beginning: true)
        } else {
            schedule(at: state.nextSliceAt, beginning: false)
        }
    }

    /// Runs the next slice (or begins the next round and runs its first slice) at `deadline`, as its own task.
    private func schedule(at deadline: NIODeadline, beginning: Bool) {
        let state = box.value
        let task = { [self] in
            self.box.value.scheduled = nil
            if beginning { self.beginRound() }
            self.writeSlice()
        }
        if let gate {
            state.gateHeld = true
            let box = self.box
            gate.pass(on: eventLoop) { [self] in
                box.value.gateHeld = false
                box.value.pauseOwed = false
                if beginning { self.beginRound() }
                self.writeSlice()
            }
            return
        }
        if deadline <= .now() {
            state.scheduled = nil
            eventLoop.assumeIsolated().execute(task)
        } else {
            state.scheduled = eventLoop.assumeIsolated().scheduleTask(deadline: deadline, task)
        }
    }

    /// One visit: the window's frames after the session's `sent`, each reply right after the changeset it follows,
    /// then one flush.
    private func visit(_ session: SessionHandler, _ state: State) -> (frames: Int, bytes: Int) {
        let replies = state.replies.isEmpty ? [] : state.replies.removeValue(forKey: session.id) ?? []
        var variant = session.frameVariant
        if variant != .full, !state.windows[variant.rawValue].reaches(back: session.sentRevision) { variant = .full }
        let written = session.deliverLive(state.windows[variant.rawValue], replies: replies)
        session.flushIfNeeded()
        return written
    }

    private func endRound(_ round: FanoutRound) {
        countWritten(round.frames, round.bytes)
        metrics.fanoutRoundDuration.recordNanoseconds(round.busy.nanoseconds)
        if let oldest = round.oldestDurable {
            metrics.fanoutDelay.recordNanoseconds((NIODeadline.now() - oldest).nanoseconds)
        }
    }

    private func countWritten(_ frames: Int, _ bytes: Int) {
        guard frames > 0 else { return }
        metrics.fanoutFrames.increment(by: Int64(frames))
        metrics.fanoutBytes.increment(by: Int64(bytes))
    }

    /// Sessions visited per slice (about 0.3 ms of writing on this VM's loopback TLS). Smaller slices spread the
    /// writes more evenly between the pauses: at 100 commits/s × 1,000 subscribers, single runs gave p99 23 ms
    /// with 24, 26 ms with 32 and 30 ms with 64 (docs/BENCHMARKS.md).
    static let sliceSize = 24

    /// Closes one session with an error (a replaced session: its client instance has moved on, so it is not worth
    /// visiting everyone for; later visits skip it once it is closing).
    func close(_ id: SessionID, _ code: WireErrorCode, _ message: String) {
        box.value.byID[id]?.fail(code, message)
    }

    /// Closes every session the predicate picks (revoked tokens, shutdown), after visiting every session so
    /// nothing durable that reached this loop is held back from them.
    func closeSessions(where predicate: (SessionHandler) -> Bool, _ code: WireErrorCode, _ message: String) {
        deliverPending()
        for session in box.value.order where predicate(session) {
            session.fail(code, message)
        }
    }

    /// Evicts the session of this loop with the largest queue as a slow consumer (the global cap was passed).
    func evictLargestQueue() {
        guard let largest = box.value.order.max(by: { $0.queuedBytes < $1.queuedBytes }),
            largest.queuedBytes > 0
        else { return }
        largest.slowConsumer(
            reason: "the server's queued bytes passed their global cap and yours was the largest queue"
        )
    }

    /// Sessions on this loop now.
    var sessionCount: Int { box.value.order.count }
}
