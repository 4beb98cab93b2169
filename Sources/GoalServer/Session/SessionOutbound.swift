import NIOCore

/// The session's outbound rules (docs/PROTOCOL.md §3 and §7): its own bounded queue, the flush budget of every write
/// (`TLSFlushBudget`), whether a flush is due, the catch-up bytes the socket has not taken yet, and the
/// slow-consumer bound over what waits (the queue and what NIO still holds, catch-up excepted).
///
/// It decides; `SessionHandler` writes. Writability is an input of each decision (the channel's, read when the
/// decision is made), so a write that fills the socket queues the next frame. No I/O, no clock: tested directly
/// (SessionOutboundTests).
///
/// Value type, owned by `SessionMachine`. Lifetime: the connection's.
struct SessionOutbound {
    /// What to do with one frame.
    enum Step: Equatable {
        /// Write it now, as planned (flushes first or in pieces when it would pass the flush budget).
        case write(ByteBuffer, TLSFlushBudget.Plan)
        /// It joined the queue: add its bytes to the server's global count and report the new total.
        case queued(bytes: Int)
        /// It passed the session's bound: the session is a slow consumer (its bytes are queued, and counted).
        case overBound(bytes: Int)
    }

    /// The most bytes the session may have waiting for the socket (`ServerLimits.sessionQueueBytes`).
    let bound: Int
    /// The channel's high write-buffer watermark: a writable channel holds at most this much.
    let channelHighWaterMark: Int

    private(set) var queue = CircularBuffer<ByteBuffer>()
    private(set) var queuedBytes = 0
    /// Something was written since the last flush.
    private(set) var needsFlush = false
    private var flushBudget = TLSFlushBudget()
    /// Catch-up bytes (snapshot, backlog, the presence list) handed to the channel and not yet written to the socket:
    /// they never count toward the bound, also while they are still buffered after going live.
    private(set) var catchUpBytesUnwritten = 0

    init(bound: Int, channelHighWaterMark: Int) {
        self.bound = bound
        self.channelHighWaterMark = channelHighWaterMark
    }

    /// A live frame (counted toward the bound): written now when the socket is `writable` and nothing waits before
    /// it, else queued.
    mutating func send(_ frame: ByteBuffer, writable: Bool) -> Step {
        if queue.isEmpty && writable { return .write(frame, plan(frame, limit: TLSFlushBudget.maxBytesPerFlush)) }
        queue.append(frame)
        queuedBytes += frame.readableBytes
        return queuedBytes > bound ? .overBound(bytes: frame.readableBytes) : .queued(bytes: frame.readableBytes)
    }

    /// Catch-up bytes: written now within the catch-up budget, counted as catch-up until `catchUpWritten`.
    mutating func sendCatchUp(_ frames: ByteBuffer) -> TLSFlushBudget.Plan {
        catchUpBytesUnwritten += frames.readableBytes
        return plan(frames, limit: TLSFlushBudget.catchUpBytesPerFlush)
    }

    /// The socket took catch-up bytes (or the channel failed them).
    mutating func catchUpWritten(_ bytes: Int) {
        catchUpBytesUnwritten -= bytes
    }

    /// Frames written as they are, outside the budget (presence events): a flush is due.
    mutating func wroteUnbudgeted() {
        needsFlush = true
    }

    /// The next queued frame to write, as planned, once the socket is writable (the caller stops when it is not).
    mutating func popQueued() -> (frame: ByteBuffer, plan: TLSFlushBudget.Plan)? {
        guard let frame = queue.popFirst() else { return nil }
        queuedBytes -= frame.readableBytes
        return (frame, plan(frame, limit: TLSFlushBudget.maxBytesPerFlush))
    }

    private mutating func plan(_ frame: ByteBuffer, limit: Int) -> TLSFlushBudget.Plan {
        needsFlush = true
        return flushBudget.plan(frame.readableBytes, limit: limit)
    }

    /// Whether to flush now; counts the flush as made.
    mutating func takeFlush() -> Bool {
        guard needsFlush else { return false }
        flushed()
        return true
    }

    /// A flush was made (also the final one of a close).
    mutating func flushed() {
        needsFlush = false
        flushBudget.flushed()
    }

    /// Drops the queue (the session closes).
    /// - Returns: the bytes to take off the server's global count.
    mutating func dropQueue() -> Int {
        let bytes = queuedBytes
        queuedBytes = 0
        queue.removeAll()
        return bytes
    }

    /// After a flush: whether the bytes NIO still holds must be read to know the session is within its bound. A
    /// writable channel holds at most the high watermark: no need to ask NIO when that fits in the bound.
    func needsBufferedBytes(writable: Bool) -> Bool {
        !(queuedBytes + channelHighWaterMark <= bound + catchUpBytesUnwritten && writable)
    }

    /// The bytes NIO holds for the socket, read after a flush.
    /// - Returns: the live bytes waiting when they pass the bound (catch-up bytes do not count), else nil.
    func liveBytesPastBound(buffered: Int) -> Int? {
        let live = max(0, buffered - catchUpBytesUnwritten) + queuedBytes
        return live > bound ? live : nil
    }
}
