import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOWebSocket

/// One WebSocket session after the upgrade, as an adapter: it turns NIO's events (a frame read, writability, an
/// error, inactivity, a timer) and the shard's (a delivery, a flush, presence, a close) into `SessionMachine`
/// events, and the machine's `SessionAction`s into writes, flushes, closes, timers and calls to its collaborators.
/// Every session rule lives in the machine; the handler decides nothing.
///
/// The hot path is a `ChannelHandler`, not a task per frame: the shard calls `deliverLive` and then `flushIfNeeded`
/// on this handler's event loop, so one batch costs one write and one flush per session.
///
/// Re-entrancy: the handler performs actions inside a section (`SessionReentrancy`); what NIO raises from inside a
/// write or flush waits until the outermost section ends, then the machine's pending close, the teardown and the
/// writability change are performed, in that order. The machine is never called while it mutates.
///
/// Threading: confined to its channel's event loop (not `Sendable`). Lifetime: added by the upgrade, removed when
/// the channel closes; `channelInactive` releases its connection counts, registrations and timers.
final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = ByteBuffer

    let collaborators: SessionCollaborators
    /// The league the hello chose, with the lease the session holds on it until it ends; nil before.
    var league: LeagueRuntime?
    /// The league's shard on this session's loop; nil before the hello's league is known.
    var shard: LoopShard?
    let id: SessionID
    /// Resets the connection beneath TLS (the slow-consumer abort); nil when the pipeline has none.
    let aborter: ConnectionAborter?

    /// Every rule and all the state of the session.
    var machine: SessionMachine
    var context: ChannelHandlerContext?
    var logger: Logger
    /// Defers what NIO raises from inside the session's own writes until they end.
    var reentrancy = SessionReentrancy()
    /// The handshake deadline, the heartbeat and the presence timer.
    var timers = SessionTimers()
    /// Whether the lease on `league` was given back.
    var leagueReleased = false

    init(
        collaborators: SessionCollaborators,
        shardIndex: Int,
        remoteAddress: String,
        connectedAt: NIODeadline,
        negotiatedDeflate: Bool = false,
        aborter: ConnectionAborter? = nil,
        now: NIODeadline = .now()
    ) {
        self.collaborators = collaborators
        self.aborter = aborter
        let id = collaborators.makeSessionID()
        self.id = id
        machine = SessionMachine(
            SessionMachine.Configuration(
                limits: collaborators.limits,
                epoch: collaborators.leagues.defaultLeague.epoch,
                nodeID: collaborators.nodeID,
                sessionID: id,
                shardIndex: shardIndex,
                negotiatedDeflate: negotiatedDeflate,
                channelHighWaterMark: ServerPipeline.writeBufferWaterMark.high
            ),
            connectedAt: connectedAt,
            now: now
        )
        var logger = collaborators.logger
        logger[metadataKey: "goal.session.id"] = "\(id)"
        logger[metadataKey: "goal.session.peer"] = "\(remoteAddress)"
        self.logger = logger
    }

    // MARK: - What the shard and the registries read

    var address: ReplyAddress { machine.address }
    var frameVariant: FrameVariant { machine.frameVariant }
    var sentRevision: Revision { machine.sentRevision }
    var registration: SessionIdentity? { machine.registration }
    var isClosing: Bool { machine.isClosing }
    var queuedBytes: Int { machine.outbound.queuedBytes }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        timers.handshake = context.eventLoop.assumeIsolated().scheduleTask(deadline: machine.handshakeDeadline) {
            [self] in
            run { apply(machine.handshakeDeadlinePassed()) }
        }
        let interval = TimeAmount.milliseconds(Int64(collaborators.limits.pingIntervalMilliseconds))
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timers.heartbeat = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            loopBound.value.heartbeatTick()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if reentrancy.tearDown() { run { tearDown() } }
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        if reentrancy.tearDown() { run { tearDown() } }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        run { apply(machine.frameRead(opcode: frame.opcode, data: frame.unmaskedData, now: now(context))) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        run { flushPending() }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Fired from inside a flush too (the flush drained the socket): then it waits for that write to end.
        if context.channel.isWritable, reentrancy.becameWritable() {
            run { writableAgain() }
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        run { apply(machine.inboundError(error)) }
    }

    private func heartbeatTick() {
        guard let context else { return }
        run { apply(machine.heartbeatTick(now: context.eventLoop.now)) }
    }

    /// The event's time: the loop's clock (an `EmbeddedEventLoop`'s own in tests) and the wall clock.
    func now(_ context: ChannelHandlerContext) -> SessionNow {
        SessionNow(uptime: context.eventLoop.now, wall: .now())
    }

    // MARK: - The shard's events

    /// One visit of the shard: the loop's live window and this session's answers, written in the order the
    /// machine decides.
    /// - Returns: the changeset frames and bytes written.
    func deliverLive(_ window: LiveWindow, replies: [Reply]) -> (frames: Int, bytes: Int) {
        var written = (frames: 0, bytes: 0)
        run {
            guard let context else { return }
            let delivery = machine.deliverLive(window, replies: replies)
            for write in delivery.writes {
                let send = machine.send(write, writable: context.channel.isWritable)
                if case .changesets(let frames, let count) = write, !send.isNone {
                    written.frames += count
                    written.bytes += frames.readableBytes
                }
                perform(send, context: context)
            }
            apply(delivery.then)
        }
        return written
    }

    /// Flushes what was written since the last flush, then checks the bound.
    func flushIfNeeded() {
        run { flushPending() }
    }

    /// Presence events from the shard.
    func offerPresence(_ events: [PresenceEvent]) {
        run {
            guard let context else { return }
            apply(machine.offerPresence(events, writable: context.channel.isWritable))
        }
    }

    /// Ends the session with `error{code, message}` and its close code.
    func fail(_ code: WireErrorCode, _ message: String) {
        run { machine.fail(code, message) }
    }

    /// Ends the session as a slow consumer (the shard evicts the largest queue past the global cap).
    func slowConsumer(reason: String) {
        run { apply(machine.slowConsumer(reason: reason)) }
    }

    // MARK: - Sections

    /// Runs `body` as a section, then, once the outermost section has ended, the machine's pending close and what
    /// NIO raised meanwhile, each round inside a section of its own (what that raises is performed next).
    func run(_ body: () -> Void) {
        reentrancy.enter()
        body()
        var deferred = reentrancy.leave()
        while !reentrancy.isInSection {
            let close = machine.takePendingClose()
            guard close != nil || !deferred.isEmpty else { return }
            reentrancy.enter()
            if let close { apply(close) }
            for event in deferred {
                switch event {
                case .tearDown: tearDown()
                case .writable: writableAgain()
                }
            }
            deferred = reentrancy.leave()
        }
    }

    /// The socket takes bytes again: the queue first, then catch-up and presence, then one flush.
    private func writableAgain() {
        guard let context, context.channel.isWritable, !machine.isClosing else { return }
        while context.channel.isWritable, let next = machine.popQueued() {
            _ = collaborators.adjustQueuedBytes(-next.frame.readableBytes)
            write(next.frame, as: next.plan, promise: nil, context: context)
        }
        pumpCatchUp()
        apply(machine.drainPresence(writable: context.channel.isWritable))
        flushPending()
    }

    /// Releases everything the session holds. Idempotent.
    private func tearDown() {
        timers.cancelHandshakeAndHeartbeat()
        apply(machine.tearDown())
        releaseLeague()
    }

    /// Gives back the lease on the session's league (once; the league stays known for what is still performed).
    func releaseLeague() {
        guard let league, !leagueReleased else { return }
        leagueReleased = true
        collaborators.leagues.release(league)
    }
}

/// The timers a session's handler holds for its machine. Value type, confined to the session's event loop.
struct SessionTimers {
    var handshake: Scheduled<Void>?
    var heartbeat: RepeatedTask?
    var presence: Scheduled<Void>?

    mutating func cancelHandshake() {
        handshake?.cancel()
        handshake = nil
    }

    mutating func cancelHandshakeAndHeartbeat() {
        cancelHandshake()
        heartbeat?.cancel()
        heartbeat = nil
    }

    mutating func cancelPresence() {
        presence?.cancel()
        presence = nil
    }
}
