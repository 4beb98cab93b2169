import CoreMetrics
import GoalModel
import GoalWire
import Logging
import NIOCore
import NIOWebSocket

/// Writing: the session's bounded queue, flushing, the slow-consumer policy and closing.
///
/// Every write and flush runs inside a write section (`inSection`); a close asked for inside one, and what NIO raises
/// from inside a write or flush (writability, inactivity), waits until the outermost section ends
/// (`SessionReentrancy`, docs/ARCHITECTURE.md "Re-entrancy").
extension SessionHandler {
    /// Runs `body` as a write section, then performs what was deferred during it once the outermost section ends,
    /// each inside a section of its own (what that raises is performed next, in the same order).
    func inSection<Result>(_ body: () -> Result) -> Result {
        reentrancy.enter()
        let result = body()
        var due = reentrancy.leave()
        while !due.isEmpty {
            reentrancy.enter()
            for deferred in due {
                switch deferred {
                case .close(let close): performClose(close)
                case .tearDown: tearDown()
                case .writable: writableAgain()
                }
            }
            due = reentrancy.leave()
        }
        return result
    }

    /// Writes a frame now if the socket is writable and nothing waits before it, else queues it. Counts toward
    /// the session's bound; past it the session is a slow consumer. Does not flush.
    func enqueue(_ frame: ByteBuffer) {
        guard let context, !isClosing else { return }
        if queue.isEmpty && context.channel.isWritable {
            writeSized(frame, promise: nil, context: context)
            return
        }
        queue.append(frame)
        queuedBytes += frame.readableBytes
        let total = core.adjustQueuedBytes(by: frame.readableBytes)
        if queuedBytes > core.limits.sessionQueueBytes {
            slowConsumer(reason: "its queue passed \(core.limits.sessionQueueBytes) bytes")
        } else if total > core.limits.globalQueueBytes {
            shard.evictLargestQueue()
        }
    }

    /// Encodes and writes one message, then flushes.
    func sendNow(_ message: ServerMessage) {
        guard let context else { return }
        enqueue(ServerFrameEncoder.textFrame(message.encoded(), allocator: context.channel.allocator))
        flushIfNeeded()
    }

    func flushIfNeeded() {
        guard needsFlush, let context else { return }
        inSection {
            flushNow(context)
            checkBufferedBytes(context)
        }
    }

    /// The bound covers what NIO still holds for the socket, not only this session's own queue: a writable session
    /// takes a whole batch in one write, so a huge batch would otherwise pass the bound unseen. Catch-up (backlog
    /// and snapshot) does not count, as the protocol promises; it is written only while the socket is writable.
    private func checkBufferedBytes(_ context: ChannelHandlerContext) {
        guard stream?.isLive ?? true, !isClosing else { return }
        // A writable channel holds at most the high watermark: no need to ask NIO when that fits in the bound.
        if queuedBytes + ServerCore.writeBufferWaterMark.high <= core.limits.sessionQueueBytes + catchUpBytesUnwritten,
            context.channel.isWritable
        {
            return
        }
        // No answer (the channel closed under us) leaves nothing to bound: the session is ending anyway.
        guard
            // No answer means the channel closed under us: nothing is left to bound (see above).
            let buffered = try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)
        else { return }
        let live = max(0, buffered - catchUpBytesUnwritten) + queuedBytes
        if live > core.limits.sessionQueueBytes {
            slowConsumer(reason: "\(live) bytes were waiting for the socket")
        }
    }

    /// Writes queued frames while the socket takes them.
    func drainQueue() {
        guard let context, !queue.isEmpty else { return }
        inSection {
            while !isClosing, let frame = queue.popFirst() {
                queuedBytes -= frame.readableBytes
                core.adjustQueuedBytes(by: -frame.readableBytes)
                writeSized(frame, promise: nil, context: context)
                if !context.channel.isWritable { break }
            }
        }
    }

    // MARK: - What the shard delivers

    /// One visit of the shard: the loop's live window and this session's answers. The stream decides the order
    /// (each answer right after the changeset it follows; held while catching up); this writes it.
    ///
    /// - Returns: the changeset frames and bytes written.
    func deliverLive(_ window: LiveWindow, replies: [Reply]) -> (frames: Int, bytes: Int) {
        inSection { deliverLiveInSection(window, replies: replies) }
    }

    private func deliverLiveInSection(_ window: LiveWindow, replies: [Reply]) -> (frames: Int, bytes: Int) {
        guard !isClosing else { return (0, 0) }
        guard stream != nil else {
            for reply in replies { enqueue(reply.frame) }  // `stream: acks`: answers only, as they come
            return (0, 0)
        }
        let wasLive = stream?.isLive ?? false
        // The stream decides and its mutation ends here; the writes (which may close the session) come after.
        guard let writes = stream?.deliver(window, replies: replies) else { return (0, 0) }
        var written = (frames: 0, bytes: 0)
        for write in writes {
            let counted = perform(write)
            written.frames += counted.frames
            written.bytes += counted.bytes
        }
        if wasLive, stream?.mode == .catchingUp(.rejoin) {
            logger.warning(
                "the loop's window does not reach back to the session; catching up from the log",
                metadata: [
                    "goal.sent": "\(stream?.sent ?? 0)", "goal.window.first": "\(window.firstRevision)",
                ]
            )
            core.metrics.fanoutRejoins.increment()
            pumpCatchUp()
        }
        return written
    }

    /// Writes what the stream decided.
    /// - Returns: the changeset frames and bytes it wrote (zero for anything else).
    @discardableResult
    func perform(_ write: SessionStream.Write) -> (frames: Int, bytes: Int) {
        guard let context, !isClosing else { return (0, 0) }
        switch write {
        case .changesets(let frames, let count):
            enqueue(frames)
            return (count, frames.readableBytes)
        case .reply(let frame):
            enqueue(frame)
        case .catchUp(let frames):
            writeCatchUp(frames, context: context)
        case .caughtUp(let head):
            enqueue(
                ServerFrameEncoder.textFrame(
                    ServerMessage.caughtUp(head: head).encoded(),
                    allocator: context.channel.allocator
                )
            )
        }
        return (0, 0)
    }

    /// An answer decided by the session itself (not by the engine): held while catching up.
    func deliverReply(_ frame: ByteBuffer) {
        guard !isClosing else { return }
        if stream == nil {
            enqueue(frame)
        } else if let write = stream?.reply(frame) {
            perform(write)
        }
    }

    // MARK: - Ending the session

    /// Sends `error{code, message}` and the close code that goes with it, then closes once they are written
    /// (or after a short grace period for the peer's close frame).
    func fail(_ code: WireErrorCode, _ message: String, close closeCode: CloseCode? = nil) {
        close(.error(code, message, closeCode: closeCode))
    }

    /// The one way a session ends. Inside a write section it waits for the section's end (the first close asked
    /// for wins); outside one it is performed now, in a section of its own.
    func close(_ close: SessionClose) {
        guard reentrancy.close(close) else { return }
        inSection { performClose(close) }
    }

    /// Performs a close (only from `close` and the end of a section). Idempotent: a session closes once.
    private func performClose(_ close: SessionClose) {
        guard let context else { return }
        guard inbound.close() else {
            if case .drop = close { context.close(promise: nil) }  // the peer answered our close: end now
            return
        }
        leavePresence()
        dropQueue()
        switch close {
        case .error(let code, let message, let closeCode):
            sendError(code, message, closeCode: closeCode ?? code.closeCode, context: context)
        case .answer(let code):
            let frame = ServerFrameEncoder.closeFrame(code: code, reason: "", allocator: context.channel.allocator)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
        case .drop:
            context.close(promise: nil)
        }
    }

    private func sendError(
        _ code: WireErrorCode,
        _ message: String,
        closeCode: CloseCode,
        context: ChannelHandlerContext
    ) {
        core.metrics.recordClose(code: closeCode.rawValue)
        logger.debug(
            "closing session",
            metadata: ["goal.close.code": "\(closeCode)", "goal.close.reason": "\(message)"]
        )
        let allocator = context.channel.allocator
        let error = ServerFrameEncoder.textFrame(
            ServerMessage.error(code: code, message: message).encoded(),
            allocator: allocator
        )
        let close = ServerFrameEncoder.closeFrame(code: closeCode.rawValue, reason: code.rawValue, allocator: allocator)
        context.write(wrapOutboundOut(error), promise: nil)
        context.writeAndFlush(wrapOutboundOut(close), promise: nil)
        needsFlush = false
        flushBudget.flushed()
        let channel = context.channel
        guard code == .slowConsumer else {
            context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
            return
        }
        // A slow consumer may never read again: reset the connection at the end of the grace, beneath TLS (a TLS
        // close would wait for the peer's close_notify first, PROTOCOL.md §7).
        let grace = TimeAmount.milliseconds(Int64(core.limits.slowConsumerAbortMilliseconds))
        let aborter = self.aborter
        context.eventLoop.assumeIsolated().scheduleTask(in: grace) {
            if let aborter { aborter.abort() } else { channel.close(promise: nil) }
        }
    }

    /// Writes catch-up bytes (snapshot, backlog) and counts them as catch-up until the socket took them.
    func writeCatchUp(_ frames: ByteBuffer, context: ChannelHandlerContext) {
        let bytes = frames.readableBytes
        catchUpBytesUnwritten += bytes
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in self.catchUpBytesUnwritten -= bytes }
        writeSized(frames, promise: written, context: context, limit: TLSFlushBudget.catchUpBytesPerFlush)
    }

    /// The slow-consumer policy: drop the queue, send 4008 after what is already in the socket, abort after 5 s.
    func slowConsumer(reason: String) {
        guard !isClosing else { return }
        core.metrics.slowConsumerCloses.increment()
        fail(.slowConsumer, "slow consumer: \(reason); reconnect and resume from your revision")
    }

    private func dropQueue() {
        if queuedBytes > 0 {
            core.adjustQueuedBytes(by: -queuedBytes)
            queuedBytes = 0
        }
        queue.removeAll()
        stream = nil
    }
}
