import CoreMetrics
import GoalModel
import GoalWire
import Logging
import NIOCore
import NIOWebSocket

/// Writing: the session's bounded queue, flushing, the slow-consumer policy and closing.
extension SessionHandler {
    /// Writes a frame now if the socket is writable and nothing waits before it, else queues it. Counts toward
    /// the session's bound; past it the session is a slow consumer. Does not flush.
    func enqueue(_ frame: ByteBuffer) {
        guard let context, !isClosing else { return }
        if queue.isEmpty && context.channel.isWritable {
            context.write(wrapOutboundOut(frame), promise: nil)
            needsFlush = true
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
        needsFlush = false
        context.flush()
        checkBufferedBytes(context)
    }

    /// The bound covers what NIO still holds for the socket, not only this session's own queue: a writable session
    /// takes a whole batch in one write, so a huge batch would otherwise pass the bound unseen. Catch-up (backlog
    /// and snapshot) does not count, as the protocol promises; it is written only while the socket is writable.
    private func checkBufferedBytes(_ context: ChannelHandlerContext) {
        guard case .live = streamState, !isClosing else { return }
        // A writable channel holds at most the high watermark: no need to ask NIO when that fits in the bound.
        if queuedBytes + ServerCore.writeBufferWaterMark.high <= core.limits.sessionQueueBytes + catchUpBytesUnwritten,
            context.channel.isWritable
        {
            return
        }
        guard
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
        var drained = 0
        while let frame = queue.popFirst() {
            drained += frame.readableBytes
            context.write(wrapOutboundOut(frame), promise: nil)
            needsFlush = true
            if !context.channel.isWritable { break }
        }
        queuedBytes -= drained
        core.adjustQueuedBytes(by: -drained)
    }

    // MARK: - What the shard delivers

    /// The loop's live window and this session's replies: when live, the frames after `sent` with each reply right
    /// after the changeset it follows (PROTOCOL.md §6: an ack comes right after its own changeset, also when one
    /// batch carries many); while catching up, the head is noted as the target and the replies are held.
    ///
    /// - Returns: the changeset frames and bytes written.
    func deliverLive(_ window: LiveWindow, replies: [Reply]) -> (frames: Int, bytes: Int) {
        guard !isClosing else { return (0, 0) }
        guard wantsChangesets else {
            for reply in replies { deliverReply(reply.frame) }
            return (0, 0)
        }
        guard case .live = streamState, window.reaches(back: sent) else {
            // Catching up (or about to rejoin from the log): the replies wait for `caught_up`.
            let noted = deliverLive(window)
            for reply in replies { deliverReply(reply.frame) }
            return noted
        }
        var written = (frames: 0, bytes: 0)
        for reply in replies {
            if reply.after > sent, let frames = window.frames(after: sent, through: reply.after) {
                written.frames += Int(min(reply.after, window.head) - sent)
                written.bytes += frames.readableBytes
                enqueue(frames)
                sent = min(reply.after, window.head)
            }
            deliverReply(reply.frame)
        }
        let rest = deliverLive(window)
        return (written.frames + rest.frames, written.bytes + rest.bytes)
    }

    /// The loop's live window: the frames after `sent` are written when live, the head noted as the catch-up
    /// target otherwise.
    private func deliverLive(_ window: LiveWindow) -> (frames: Int, bytes: Int) {
        guard !isClosing else { return (0, 0) }
        switch streamState {
        case .live:
            guard window.reaches(back: sent) else {
                logger.warning(
                    "the loop's window does not reach back to the session; catching up from the log",
                    metadata: ["goal.sent": "\(sent)", "goal.window.first": "\(window.firstRevision)"]
                )
                core.metrics.fanoutRejoins.increment()
                target = window.head
                streamState = .catchingUp(.rejoin)
                pumpCatchUp()
                return (0, 0)
            }
            guard let frames = window.frames(after: sent) else { return (0, 0) }
            let written = (Int(window.head - sent), frames.readableBytes)
            enqueue(frames)
            sent = window.head
            return written
        case .catchingUp:
            target = max(target, window.head)
            return (0, 0)
        }
    }

    /// A reply (ack, rejection) for this session: held while catching up so it never precedes its changeset.
    func deliverReply(_ frame: ByteBuffer) {
        guard !isClosing else { return }
        if case .catchingUp = streamState {
            heldReplies.append(frame)
        } else {
            enqueue(frame)
        }
    }

    // MARK: - Ending the session

    /// Sends `error{code, message}` and the close code that goes with it, then closes once they are written
    /// (or after a short grace period for the peer's close frame).
    func fail(_ code: WireErrorCode, _ message: String) {
        guard let context, !isClosing else { return }
        phase = .closing
        let closeCode = code.closeCode
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
        dropQueue()
        context.write(wrapOutboundOut(error), promise: nil)
        context.writeAndFlush(wrapOutboundOut(close), promise: nil)
        needsFlush = false
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
        context.write(wrapOutboundOut(frames), promise: written)
        needsFlush = true
    }

    /// The slow-consumer policy: drop the queue, send 4008 after what is already in the socket, abort after 5 s.
    func slowConsumer(reason: String) {
        guard !isClosing else { return }
        core.metrics.slowConsumerCloses.increment()
        fail(.slowConsumer, "slow consumer: \(reason); reconnect and resume from your revision")
    }

    /// Answers the peer's close frame with the same code and closes.
    func answerClose(_ frame: WebSocketFrame) {
        guard let context else { return }
        var data = frame.unmaskedData
        let code = data.readInteger(as: UInt16.self) ?? CloseCode.normal.rawValue
        phase = .closing
        dropQueue()
        let close = ServerFrameEncoder.closeFrame(code: code, reason: "", allocator: context.channel.allocator)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func dropQueue() {
        if queuedBytes > 0 {
            core.adjustQueuedBytes(by: -queuedBytes)
            queuedBytes = 0
        }
        queue.removeAll()
        heldReplies.removeAll()
        snapshotFrames = []
    }
}
