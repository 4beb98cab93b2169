import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore

/// Writing: what the shard delivers (the loop's live window and this session's answers), the outbound queue and its
/// bound, and catching up (the snapshot's frames, then backlog pages (sent, target] read off the event loop, written
/// only while the socket is writable and never counted toward the slow-consumer bound, then `caught_up` and live).
extension SessionMachine {
    /// What the handler does with one frame of the session's stream.
    enum Send {
        /// Write it now, as planned.
        case write(ByteBuffer, TLSFlushBudget.Plan)
        /// Write these catch-up bytes now, as planned; report with `catchUpWritten` once the socket took them.
        case writeCatchUp(ByteBuffer, TLSFlushBudget.Plan)
        /// It waits in the session's queue: add its bytes to the server's global count, report the total with
        /// `globalQueueTotal`, then perform `then` (the slow-consumer close when the queue passed its bound).
        case queued(bytes: Int, then: [SessionAction] = [])
        /// Nothing: the session is closing.
        case none

        var isNone: Bool {
            if case .none = self { return true }
            return false
        }
    }

    /// A live frame (counted toward the bound), read when the socket is `writable` or not.
    mutating func send(_ frame: ByteBuffer, writable: Bool) -> Send {
        guard !isClosing else { return .none }
        switch outbound.send(frame, writable: writable) {
        case .write(let frame, let plan):
            return .write(frame, plan)
        case .queued(let bytes):
            return .queued(bytes: bytes)
        case .overBound(let bytes):
            return .queued(
                bytes: bytes,
                then: slowConsumer(reason: "its queue passed \(limits.sessionQueueBytes) bytes")
            )
        }
    }

    /// Catch-up bytes (snapshot, backlog page, the presence list): never counted toward the bound.
    mutating func sendCatchUp(_ frames: ByteBuffer) -> Send {
        guard !isClosing else { return .none }
        return .writeCatchUp(frames, outbound.sendCatchUp(frames))
    }

    /// One write the stream decided.
    mutating func send(_ write: SessionStream.Write, writable: Bool) -> Send {
        switch write {
        case .changesets(let frames, _), .reply(let frames):
            return send(frames, writable: writable)
        case .catchUp(let frames):
            return sendCatchUp(frames)
        case .caughtUp(let head):
            let frame = ServerFrameEncoder.textFrame(ServerMessage.caughtUp(head: head).encoded(), allocator: allocator)
            return send(frame, writable: writable)
        }
    }

    /// The server's queued bytes together, after this session queued a frame: past the global cap, the loop's
    /// largest queue is evicted.
    func globalQueueTotal(_ total: Int) -> [SessionAction] {
        !isClosing && total > limits.globalQueueBytes ? [.evictLargestQueue] : []
    }

    /// The socket took catch-up bytes.
    mutating func catchUpWritten(_ bytes: Int) {
        outbound.catchUpWritten(bytes)
    }

    /// The next queued frame to write while the socket is writable (the handler stops when it is not).
    mutating func popQueued() -> (frame: ByteBuffer, plan: TLSFlushBudget.Plan)? {
        guard !isClosing else { return nil }
        return outbound.popQueued()
    }

    /// Whether to flush now (something was written since the last flush); counts the flush as made.
    mutating func takeFlush() -> Bool {
        outbound.takeFlush()
    }

    /// After a flush: whether the bytes NIO holds must be read to check the bound. The bound covers what NIO still
    /// holds for the socket, not only this session's own queue: a writable session takes a whole batch in one write,
    /// so a huge batch would otherwise pass the bound unseen. Catch-up (backlog and snapshot) does not count, as
    /// the protocol promises; it is written only while the socket is writable.
    func needsBufferedBytes(writable: Bool) -> Bool {
        guard stream?.isLive ?? true, !isClosing else { return false }
        return outbound.needsBufferedBytes(writable: writable)
    }

    /// The bytes NIO holds for the socket after a flush: past the bound, the session is a slow consumer.
    mutating func bufferedBytes(_ buffered: Int) -> [SessionAction] {
        guard stream?.isLive ?? true, let live = outbound.liveBytesPastBound(buffered: buffered) else { return [] }
        return slowConsumer(reason: "\(live) bytes were waiting for the socket")
    }

    // MARK: - What the shard delivers

    /// One visit of the shard: what to write, in order (the stream decides: each answer right after the changeset
    /// it follows; held while catching up), and what follows the writes (going back to the log when the loop's
    /// window no longer reaches back to the session).
    mutating func deliverLive(
        _ window: LiveWindow,
        replies: [Reply]
    ) -> (writes: SessionStream.Writes, then: [SessionAction]) {
        var writes = SessionStream.Writes()
        guard !isClosing else { return (writes, []) }
        guard stream != nil else {
            for reply in replies { writes.append(.reply(reply.frame)) }  // `stream: acks`: answers only, as they come
            return (writes, [])
        }
        let wasLive = stream?.isLive ?? false
        writes = stream?.deliver(window, replies: replies) ?? writes
        guard wasLive, stream?.mode == .catchingUp(.rejoin) else { return (writes, []) }
        let then: [SessionAction] = [
            .log(
                .warning,
                "the loop's window does not reach back to the session; catching up from the log",
                ["goal.sent": "\(stream?.sent ?? 0)", "goal.window.first": "\(window.firstRevision)"]
            ),
            .count(.fanoutRejoin),
            .pumpCatchUp,
        ]
        return (writes, then)
    }

    // MARK: - Catching up

    /// What catching up does next.
    enum CatchUpStep {
        /// Perform these writes; when `thenFlush`, the stream went live: flush and stop.
        case write([SessionStream.Write], thenFlush: Bool)
        /// Read this page (`readBacklogPage`) and stop.
        case perform(SessionAction)
        /// Nothing more now.
        case wait
    }

    /// The next catch-up step while the socket is `writable`; `loopHead` is the shard's head now.
    mutating func catchUpStep(writable: Bool, loopHead: Revision) -> CatchUpStep {
        guard !isClosing, let step = stream?.nextStep(writable: writable, loopHead: loopHead) else { return .wait }
        switch step {
        case .wait:
            return .wait
        case .write(let writes):
            return .write(writes, thenFlush: stream?.isLive ?? true)
        case .readPage(let after, let upTo):
            return .perform(.readBacklogPage(after: after, upTo: upTo))
        }
    }

    /// A backlog page read (after, …]: its frames and last revision, or why it failed.
    mutating func backlogPageRead(
        _ result: Result<(frames: ByteBuffer, last: Revision?), any Error>,
        after: Revision
    ) -> [SessionAction] {
        guard !isClosing, stream != nil else { return [] }
        switch result {
        case .success(let page):
            if case .nothingAfter(let sent) = stream?.pageRead(last: page.last) {
                fail(.resync, "the log has no changesets after \(sent); reconnect to resynchronize")
                return []
            }
            return [.sendCatchUp(page.frames), .pumpCatchUp, .flush]
        case .failure(let error):
            if let error = error as? StorageError, error.code == .backlogPruned {
                fail(.resync, "the changesets after \(after) were pruned while you caught up; reconnect for a snapshot")
                return []
            }
            fail(.internalError, "the server could not read its log; reconnect")
            return [.log(.error, "backlog read failed", ["goal.error": "\(error)"])]
        }
    }

    /// The durable snapshot the cache built (or why it could not).
    mutating func snapshotBuilt(
        _ result: Result<(revision: Revision, frames: [ByteBuffer]), any Error>
    ) -> [SessionAction] {
        guard !isClosing else { return [] }
        switch result {
        case .success(let snapshot):
            stream?.snapshotArrived(revision: snapshot.revision, frames: snapshot.frames)
            return [.pumpCatchUp, .flush]
        case .failure(let error):
            fail(.internalError, "the server could not build a snapshot; reconnect")
            return [.log(.error, "snapshot build failed", ["goal.error": "\(error)"])]
        }
    }
}
