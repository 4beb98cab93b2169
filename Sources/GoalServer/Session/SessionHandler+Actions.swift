import CoreMetrics
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket

/// Performing the machine's actions: writes within the flush budget, flushes and the bound check, closes, timers,
/// and the collaborators' answers fed back to the machine. Always inside a section (`SessionHandler.run`).
extension SessionHandler {
    func apply(_ actions: [SessionAction]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: SessionAction) {
        if performWithoutChannel(action) { return }
        guard let context else { return }
        switch action {
        case .send(let frame):
            perform(machine.send(frame, writable: context.channel.isWritable), context: context)
        case .sendCatchUp(let frames):
            perform(machine.sendCatchUp(frames), context: context)
        case .writeUnbudgeted(let frames):
            for frame in frames { context.write(wrapOutboundOut(frame), promise: nil) }
        case .flush:
            flushPending()
        case .pumpCatchUp:
            pumpCatchUp()
        case .replay(let frames):
            for frame in frames { apply(machine.pipelined(frame, now: now(context))) }
        case .writeClose(let error, let close, let end):
            writeClose(error: error, close: close, then: end, context: context)
        case .closeNow:
            context.close(promise: nil)
        case .pauseReads(let delay):
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                run { apply(machine.readsMayResume()) }
            }
        case .resumeReads:
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        case .schedulePresenceTimer(let wait):
            timers.presence = context.eventLoop.assumeIsolated().scheduleTask(in: wait) { [self] in
                timers.presence = nil
                guard let context = self.context else { return }
                run { apply(machine.presenceTimerFired(now: now(context))) }
            }
        case .authenticate(let hello):
            authenticate(hello, context: context)
        case .awaitDurable(let since, let hello, let facts):
            guard let league else { return }
            let caughtUp = context.eventLoop.makePromise(of: Void.self)
            league.engine.whenDurable(atLeast: since) { caughtUp.succeed() }
            caughtUp.futureResult.assumeIsolated().whenSuccess { [self] in
                run { apply(machine.helloReady(hello, facts)) }
            }
        case .joinShard(let hello, let facts, let pipelined):
            guard let league, let shard else { return }
            let (head, headDigest) = shard.register(self)
            let actions = machine.joinedShard(
                hello,
                facts,
                pipelined: pipelined,
                head: head,
                headDigest: headDigest,
                durableRevision: league.engine.durableView.revision,
                now: now(context)
            )
            apply(actions)
        case .readHistory(let request):
            guard let storage = league?.storage else { return }
            collaborators.threadPool.runIfActive(eventLoop: context.eventLoop) { () throws -> HistoryAnswer in
                try HistoryService.answer(request, from: storage)
            }.assumeIsolated().whenComplete { [self] result in
                run { apply(machine.historyRead(result)) }
            }
        case .readBacklogPage(let after, let upTo):
            readBacklogPage(after: after, upTo: upTo, context: context)
        case .requestSnapshot:
            guard let league else { return }
            league.snapshots.frames(
                of: league.engine.durableView,
                epoch: league.epoch,
                on: context.eventLoop
            ).assumeIsolated().whenComplete { [self] result in
                run { apply(machine.snapshotBuilt(result.map { ($0.revision, $0.frames) })) }
            }
        default:
            break  // performed without the channel above
        }
    }

    /// Performs the actions that need no channel (bookkeeping with the collaborators, also while tearing down after
    /// the handler was removed).
    /// - Returns: false for the actions that write, read or schedule on the channel.
    private func performWithoutChannel(_ action: SessionAction) -> Bool {
        switch action {
        case .cancelHandshakeDeadline:
            timers.cancelHandshake()
        case .cancelPresenceTimer:
            timers.cancelPresence()
        case .admit(let token, let hello, let facts):
            guard let league else { return true }
            let admission = collaborators.admit(token, instance: hello.clientInstance, in: league, for: address)
            apply(machine.admitted(admission, token: token, hello: hello, facts: facts))
        case .replaceSession(let previous):
            league?.hub.replace(previous)
        case .submit(let request, let seq):
            if league?.engine.submit(request) != true { apply(machine.submitRefused(seq: seq)) }
        case .presence(let change):
            guard let registry = league?.presence else { return true }
            switch change {
            case .addReceiver: registry.addReceiver()
            case .removeReceiver: registry.removeReceiver()
            case .set(let member): registry.set(member)
            case .leave(let member): registry.leave(member)
            }
        case .readPresenceMembers:
            apply(machine.presenceState(league?.presence.members() ?? []))
        case .uncountQueued(let bytes):
            _ = collaborators.adjustQueuedBytes(-bytes)
        case .evictLargestQueue:
            shard?.evictLargestQueue()
        case .unregister(let identity):
            shard?.unregister(id)
            collaborators.connections.releaseToken(identity.token.id)
            league?.instances.release(identity.instance, for: address)
        case .count(let metric):
            count(metric)
        case .log(let level, let message, let metadata):
            logger.log(level: level, message, metadata: metadata)
        case .tagLogger(let token):
            logger[metadataKey: "goal.session.token"] = "\(token)"
        default:
            return false
        }
        return true
    }

    private func count(_ metric: SessionMetric) {
        let metrics = collaborators.metrics
        switch metric {
        case .sessionOpened: metrics.sessions.increment()
        case .sessionClosed: metrics.sessions.decrement()
        case .rateLimited: metrics.rateLimited.increment()
        case .overloaded: metrics.overloaded.increment()
        case .slowConsumerClose: metrics.slowConsumerCloses.increment()
        case .presenceCoalesced: metrics.presenceCoalesced.increment()
        case .fanoutRejoin: metrics.fanoutRejoins.increment()
        case .close(let code): metrics.recordClose(code: code)
        }
    }

    // MARK: - Writing

    /// Performs what the machine decided for one frame.
    func perform(_ send: SessionMachine.Send, context: ChannelHandlerContext) {
        switch send {
        case .write(let frame, let plan):
            write(frame, as: plan, promise: nil, context: context)
        case .writeCatchUp(let frames, let plan):
            let bytes = frames.readableBytes
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { [self] _ in machine.catchUpWritten(bytes) }
            write(frames, as: plan, promise: written, context: context)
        case .queued(let bytes, let then):
            let total = collaborators.adjustQueuedBytes(bytes)
            apply(then)
            apply(machine.globalQueueTotal(total))
        case .none:
            break
        }
    }

    /// Writes `buffer` as its flush-budget plan says (`TLSFlushBudget`): flushed first, or in flushed pieces, when it
    /// would pass the budget. `promise` completes with the last piece, which is left unflushed like `context.write`.
    func write(
        _ buffer: ByteBuffer,
        as plan: TLSFlushBudget.Plan,
        promise: EventLoopPromise<Void>?,
        context: ChannelHandlerContext
    ) {
        var buffer = buffer
        if plan.flushFirst { context.flush() }
        for _ in 0..<plan.wholePieces {
            // Cannot fail: the plan's whole pieces are shorter than the buffer.
            guard let piece = buffer.readSlice(length: plan.pieceLength) else { break }
            context.write(wrapOutboundOut(piece), promise: nil)
            context.flush()
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }

    /// Flushes when something was written since the last flush, then lets the machine check its bound against what
    /// NIO still holds (read only when the machine cannot rule it out).
    func flushPending() {
        guard let context, machine.takeFlush() else { return }
        context.flush()
        guard machine.needsBufferedBytes(writable: context.channel.isWritable),
            let options = context.channel.syncOptions,
            // No answer means the channel closed under us: nothing is left to bound, the session is ending anyway.
            let buffered = try? options.getOption(ChannelOptions.bufferedWritableBytes)  // see the line above
        else { return }
        apply(machine.bufferedBytes(buffered))
    }

    /// Advances the catch-up as far as the socket allows (`SessionMachine.catchUpStep`).
    func pumpCatchUp() {
        guard let context else { return }
        while true {
            switch machine.catchUpStep(writable: context.channel.isWritable, loopHead: shard?.head ?? 0) {
            case .wait:
                return
            case .write(let writes, let thenFlush):
                for write in writes {
                    perform(machine.send(write, writable: context.channel.isWritable), context: context)
                }
                if thenFlush {
                    flushPending()
                    return
                }
            case .perform(let action):
                perform(action)
                return
            }
        }
    }

    private func writeClose(
        error: ByteBuffer?,
        close: ByteBuffer,
        then end: ConnectionEnd,
        context: ChannelHandlerContext
    ) {
        if let error { context.write(wrapOutboundOut(error), promise: nil) }
        let channel = context.channel
        switch end {
        case .onceWritten:
            context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
        case .closeAfter(let grace):
            context.writeAndFlush(wrapOutboundOut(close), promise: nil)
            context.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
        case .abortAfter(let grace):
            context.writeAndFlush(wrapOutboundOut(close), promise: nil)
            // A TLS close would wait for the peer's close_notify first (PROTOCOL.md §7): reset beneath TLS.
            let aborter = self.aborter
            context.eventLoop.assumeIsolated().scheduleTask(in: grace) {
                if let aborter { aborter.abort() } else { channel.close(promise: nil) }
            }
        }
    }

    // MARK: - Reading off the event loop

    private func authenticate(_ hello: ClientMessage.Hello, context: ChannelHandlerContext) {
        let hash = TokenSecret.hash(presented: hello.token)
        let tokens = collaborators.tokens
        let leagues = collaborators.leagues
        let since = hello.since
        let slug = hello.leagueOrDefault
        collaborators.threadPool.runIfActive(eventLoop: context.eventLoop) {
            () throws -> (HelloFacts, LeagueRuntime?) in
            try HelloFacts.read(tokenHash: hash, since: since, league: slug, tokens: tokens, leagues: leagues)
        }.assumeIsolated().whenComplete { [self] result in
            if case .success((_, let acquired?)) = result {
                guard self.context != nil, !leagueReleased else {
                    leagues.release(acquired)  // the session ended while the hello was read
                    return
                }
                league = acquired
                shard = acquired.hub.shard(for: context.eventLoop)
            }
            run {
                let durable = league?.engine.durableView.revision ?? 0
                apply(machine.helloRead(result.map(\.0), hello: hello, durableRevision: durable))
            }
        }
    }

    private func readBacklogPage(after: Revision, upTo: Revision, context: ChannelHandlerContext) {
        guard let storage = league?.storage else { return }
        let limit = collaborators.limits.backlogPageSize
        let allocator = context.channel.allocator
        collaborators.threadPool.runIfActive(eventLoop: context.eventLoop) {
            () throws -> (frames: ByteBuffer, last: Revision?) in
            let frames = try storage.backlog(after: after, upTo: upTo, limit: limit)
            var buffer = allocator.buffer(capacity: frames.reduce(0) { $0 + $1.bytes.count + 10 })
            for frame in frames { ServerFrameEncoder.write(opcode: .text, payload: frame.bytes, into: &buffer) }
            return (buffer, frames.last?.revision)
        }.assumeIsolated().whenComplete { [self] result in
            run { apply(machine.backlogPageRead(result, after: after)) }
        }
    }
}
