import NIOCore

/// Writing in pieces the TLS layer can encrypt without growing its buffer.
///
/// swift-nio-ssl (2.37.6) encrypts everything written between two flushes into one per-connection buffer and keeps
/// that buffer at the largest size it ever reached, for the connection's life: `NIOSSLHandler.handlerAdded` passes
/// `maximumPreservedOutboundBufferCapacity: .max` whatever the handler's configuration says. One snapshot of a
/// league (tens of KB) or one backlog page (up to MBs) written with a single flush left every session that received
/// it with a buffer that large: 49.5 KiB per idle session after a snapshot against 25.7 with an empty league
/// (docs/BENCHMARKS.md). No listed library bounds it, so the session flushes before its unflushed bytes pass its
/// flush budget (`TLSFlushBudget`: one record live, 4 KiB while catching up), and the buffer keeps that size.
/// Everything here runs on the channel's event loop.
extension SessionHandler {
    /// Writes `buffer` within the flush budget (`TLSFlushBudget`): flushed first or in flushed pieces when it would
    /// pass the budget. `promise` completes with the last piece (the channel writes in order). Leaves the
    /// last piece unflushed, like `context.write`.
    func writeSized(
        _ buffer: ByteBuffer,
        promise: EventLoopPromise<Void>?,
        context: ChannelHandlerContext,
        limit: Int = TLSFlushBudget.maxBytesPerFlush
    ) {
        let plan = flushBudget.plan(buffer.readableBytes, limit: limit)
        // The budget's mutation has ended: flushes below may re-enter the session, which defers what they raise.
        inSection {
            var buffer = buffer
            if plan.flushFirst { context.flush() }
            for _ in 0..<plan.wholePieces {
                // Cannot fail: the plan's whole pieces are shorter than the buffer.
                guard let piece = buffer.readSlice(length: plan.pieceLength) else { break }
                context.write(wrapOutboundOut(piece), promise: nil)
                context.flush()
            }
            context.write(wrapOutboundOut(buffer), promise: promise)
            needsFlush = true
        }
    }

    /// Flushes what was written (the session's own `flushIfNeeded` checks its bounds afterwards).
    func flushNow(_ context: ChannelHandlerContext) {
        flushBudget.flushed()
        needsFlush = false
        inSection { context.flush() }
    }
}
