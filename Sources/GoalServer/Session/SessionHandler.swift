import CoreMetrics
import GoalDeflate
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOCore
import NIOWebSocket

/// One WebSocket session after the upgrade: reads client frames (hello, mutate, ping, close), answers them, and
/// writes what its shard delivers (live changeset frames shared by every session, replies of its own).
///
/// The hot path is a `ChannelHandler`, not a task per frame: the shard calls `deliverLive`/`deliverReply` and then
/// `flushIfNeeded` on this handler's event loop, so one batch costs one write and one flush per session. While the
/// socket is not writable, frames wait in the session's own bounded queue; past `sessionQueueBytes` (or when the
/// global cap evicts it) the session is a slow consumer: the queue is dropped, `error{slow_consumer}` and close 4008
/// follow what is already in the socket, and the connection is aborted after 5 s.
///
/// Threading: confined to its channel's event loop (not `Sendable`). Lifetime: added by the upgrade, removed when
/// the channel closes; `channelInactive` releases its connection counts, registrations and timers.
final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = ByteBuffer

    let core: ServerCore
    let shard: LoopShard
    let id: SessionID
    let remoteAddress: String
    let connectedAt: NIODeadline
    var logger: Logger
    /// permessage-deflate was negotiated in the upgrade: changesets may go out compressed (RSV1 set).
    let negotiatedDeflate: Bool

    var context: ChannelHandlerContext?
    /// Resets the connection beneath TLS (the slow-consumer abort); nil when the pipeline has none.
    let aborter: ConnectionAborter?
    /// The session's phase and what it does with each inbound frame (the state machine; this handler acts).
    var inbound: SessionInbound
    /// Closing already while a close waits for the end of a write section (`SessionReentrancy`).
    var phase: SessionPhase { reentrancy.closeIsPending ? .closing : inbound.phase }
    /// Set while registered with the shard, the limiter and the instance registry; cleared by `tearDown`.
    var registration: SessionIdentity?

    /// The changeset stream of a registered `stream: all` session: what it was sent, catching up or live, held
    /// answers (the state machine; this handler performs its writes). Nil before registration and for
    /// `stream: acks`, whose answers are written as they come.
    var stream: SessionStream?
    /// Catch-up bytes (snapshot, backlog) handed to the channel and not yet written to the socket: they never count
    /// toward the slow-consumer bound (PROTOCOL.md §3), also while they are still buffered after going live.
    var catchUpBytesUnwritten = 0

    // Outbound queue (see SessionHandler+Outbound.swift).
    var queue = CircularBuffer<ByteBuffer>()
    var queuedBytes = 0
    var needsFlush = false
    /// What was written since the last flush, kept within the flush budget (`writeSized`).
    var flushBudget = TLSFlushBudget()

    // Limits and timers.
    var mutationBucket: TokenBucket
    var lastRead: NIODeadline
    var handshakeDeadline: Scheduled<Void>?
    var heartbeat: RepeatedTask?
    var readsPaused = false
    /// True while a `history` request of this session is being read (SessionHandler+History.swift).
    var historyOutstanding = false
    /// The session's presence (docs/PROTOCOL.md §4 "Presence"); nil until welcome (SessionHandler+Presence.swift).
    var presence: SessionPresence?
    /// Defers what NIO raises from inside the session's own writes until they end (SessionReentrancy).
    var reentrancy = SessionReentrancy()

    init(
        core: ServerCore,
        shard: LoopShard,
        remoteAddress: String,
        connectedAt: NIODeadline,
        negotiatedDeflate: Bool = false,
        aborter: ConnectionAborter? = nil
    ) {
        self.core = core
        self.negotiatedDeflate = negotiatedDeflate
        self.aborter = aborter
        self.inbound = SessionInbound(
            maxBytesBeforeHello: core.limits.maxBytesBeforeHello,
            maxMessageBytes: core.limits.maxInboundMessageBytes
        )
        self.shard = shard
        self.id = core.makeSessionID()
        self.remoteAddress = remoteAddress
        self.connectedAt = connectedAt
        let now = NIODeadline.now()
        self.mutationBucket = TokenBucket(
            rate: core.limits.mutationsPerSecond,
            capacity: core.limits.mutationBurst,
            now: now
        )
        self.lastRead = now
        var logger = core.logger
        logger[metadataKey: "goal.session.id"] = "\(id)"
        logger[metadataKey: "goal.session.peer"] = "\(remoteAddress)"
        self.logger = logger
    }

    /// The bytes the shard writes this session's live changesets in: fixed by the hello (`FrameVariant(for:)`), set
    /// once before the session registers with its shard, read on every visit.
    private(set) var frameVariant = FrameVariant.full

    /// Takes the identity of an accepted hello (the registration) and the frame variant it implies.
    func register(_ identity: SessionIdentity) {
        registration = identity
        frameVariant = FrameVariant(for: identity, negotiatedDeflate: negotiatedDeflate)
    }

    /// The newest changeset revision written to this session (0 before registration or for `stream: acks`).
    var sentRevision: Revision { stream?.sent ?? 0 }

    var address: ReplyAddress { ReplyAddress(shard: shard.index, session: id) }

    var identity: SessionIdentity? {
        if case .open(let identity) = phase { return identity }
        return nil
    }

    /// True once a close was performed, or asked for inside a write section and waiting for its end: nothing more
    /// is written but the close.
    var isClosing: Bool {
        if case .closing = phase { return true }
        return false
    }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let limits = core.limits
        let remaining = connectedAt + .milliseconds(Int64(limits.handshakeTimeoutMilliseconds)) - .now()
        handshakeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: remaining) { [self] in
            if case .open = phase { return }
            fail(.handshakeTimeout, "no hello within \(limits.handshakeTimeoutMilliseconds / 1000) s of connecting")
        }
        let interval = TimeAmount.milliseconds(Int64(limits.pingIntervalMilliseconds))
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        heartbeat = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            loopBound.value.heartbeatTick()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if reentrancy.tearDown() { tearDown() }
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        if reentrancy.tearDown() { tearDown() }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        lastRead = .now()
        let action = inbound.frame(opcode: frame.opcode, data: frame.unmaskedData)
        inSection { perform(action, context: context) }
    }

    /// Acts on what the inbound state machine decided for one frame.
    private func perform(_ action: SessionInbound.Action, context: ChannelHandlerContext) {
        switch action {
        case .decodeHello(let bytes, let limit):
            decode(bytes, limit: limit) { message in
                guard case .hello(let hello) = message else {
                    fail(.notAuthenticated, "the first message must be hello")
                    return
                }
                receiveHello(hello)
            }
        case .decodeMessage(let bytes, let limit):
            handleMessage(bytes, limit: limit)
        case .pong(let payload):
            enqueue(ServerFrameEncoder.controlFrame(.pong, payload: payload, allocator: context.channel.allocator))
            flushIfNeeded()
        case .answerClose(let code):
            close(.answer(code))
        case .closeConnection:
            close(.drop)
        case .fail(let code, let message, let close):
            fail(code, message, close: close)
        case .none:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Fired from inside a flush too (the flush drained the socket): then it waits for that write to end.
        if context.channel.isWritable, reentrancy.becameWritable() {
            inSection { writableAgain() }
        }
        context.fireChannelWritabilityChanged()
    }

    /// The socket takes bytes again: the queue first, then catch-up and presence, then one flush.
    func writableAgain() {
        guard let context, context.channel.isWritable, !isClosing else { return }
        drainQueue()
        pumpCatchUp()
        drainPresence()
        flushIfNeeded()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case SessionInboundError.flood:
            fail(.flood, "more than \(core.limits.framesPerSecond) frames a second")
        case SessionInboundError.websocketProtocol(let violation):
            fail(.badMessage, violation, close: .websocketProtocolError)
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            fail(.tooLarge, "a message exceeded \(core.limits.maxInboundMessageBytes) bytes")
        case let error as NIOWebSocketError:
            // Fragmented or >125-byte control frames (RFC 6455 §5.5).
            fail(.badMessage, "WebSocket protocol error: \(error)", close: .websocketProtocolError)
        case PerMessageDeflateError.messageTooLarge:
            fail(.tooLarge, "a message exceeded \(core.limits.maxInboundMessageBytes) bytes once inflated")
        case PerMessageDeflateError.corruptData:
            fail(.badMessage, "\(error)", close: .invalidFramePayloadData)
        case let error as PerMessageDeflateError:
            fail(.badMessage, "\(error)", close: .websocketProtocolError)
        case let error as NIOWebSocketFrameAggregator.Error:
            // A continuation without a message started, a new message inside a fragmented one (RFC 6455 §5.4).
            fail(.badMessage, "fragmented message error: \(error)", close: .websocketProtocolError)
        default:
            logger.debug("session channel error", metadata: ["goal.error": "\(error)"])
            close(.drop)
        }
    }

    // MARK: - Messages

    /// A client message of the open session.
    private func handleMessage(_ bytes: ByteBuffer, limit: Int) {
        guard case .open(let identity) = phase else { return }
        decode(bytes, limit: limit) { message in
            switch message {
            case .hello:
                fail(.alreadyAuthenticated, "this session already said hello")
            case .mutate(let mutate):
                receiveMutate(mutate, identity: identity)
            case .history(let request):
                receiveHistory(request)
            case .presence(let activity):
                receivePresence(activity)
            }
        }
    }

    private func decode(_ buffer: ByteBuffer, limit: Int, _ body: (ClientMessage) -> Void) {
        do throws(WireDecodingError) {
            body(try ClientMessage.decode(Array(buffer.readableBytesView), limit: limit))
        } catch {
            // A mutate whose seq was readable but whose other fields were not is refused alone (PROTOCOL §7):
            // `rejected{seq, invalid}`, as a reply so it is held like any answer while catching up.
            // It costs a token like any mutation: unreadable mutations are no way around the rate limit.
            if case .open = phase, let rejected = error.rejectedMutation, let seq = error.mutateSeq, let context {
                guard takeMutationToken(seq: seq) else { return }
                deliverReply(ServerFrameEncoder.textFrame(rejected.encoded(), allocator: context.channel.allocator))
                flushIfNeeded()
                return
            }
            fail(error.code, error.description, close: error.closeCode)  // not UTF-8: 1007 (RFC 6455 §8.1)
        }
    }

    /// Takes a token from the session's mutation bucket, or answers `rate_limited{seq}` and returns false.
    private func takeMutationToken(seq: UInt64) -> Bool {
        guard mutationBucket.take(now: .now()) else {
            core.metrics.rateLimited.increment()
            sendNow(.rateLimited(seq: seq, retryAfterMilliseconds: mutationBucket.millisecondsUntilNextToken()))
            return false
        }
        return true
    }

    private func receiveMutate(_ mutate: ClientMessage.Mutate, identity: SessionIdentity) {
        guard takeMutationToken(seq: mutate.seq) else { return }
        let request = MutationRequest(
            mutation: mutate.mutation(instance: identity.instance),
            author: identity.token.name,
            role: identity.token.role,
            replyTo: address
        )
        guard core.engine.submit(request) else {
            core.metrics.overloaded.increment()
            let delay = core.limits.overloadedRetryMilliseconds
            sendNow(.overloaded(seq: mutate.seq, retryAfterMilliseconds: delay))
            pauseReads(milliseconds: delay)
            return
        }
    }

    /// Handles the text frames pipelined behind the accepted hello, in order.
    func replayPendingInbound(_ frames: [ByteBuffer]) {
        for frame in frames {
            guard case .open = phase else { return }
            handleMessage(frame, limit: core.limits.maxInboundMessageBytes)
        }
    }

    private func pauseReads(milliseconds: Int) {
        guard let context, !readsPaused else { return }
        readsPaused = true
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) { [self] in
            readsPaused = false
            guard let context = self.context, !isClosing else { return }
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
    }

    private func heartbeatTick() {
        guard let context, !isClosing else { return }
        let idle = NIODeadline.now() - lastRead
        if idle > .milliseconds(Int64(core.limits.idleTimeoutMilliseconds)) {
            fail(.heartbeatTimeout, "nothing read for \(core.limits.idleTimeoutMilliseconds / 1000) s")
            return
        }
        enqueue(ServerFrameEncoder.controlFrame(.ping, payload: ByteBuffer(), allocator: context.channel.allocator))
        flushIfNeeded()
    }

    /// Releases everything this session holds. Idempotent. Never inside a write section (`SessionReentrancy`).
    func tearDown() {
        leavePresence()
        handshakeDeadline?.cancel()
        handshakeDeadline = nil
        heartbeat?.cancel()
        heartbeat = nil
        if queuedBytes > 0 {
            core.adjustQueuedBytes(by: -queuedBytes)
            queuedBytes = 0
        }
        queue.removeAll()
        stream = nil
        if let identity = registration {
            registration = nil
            shard.unregister(id)
            core.connections.releaseToken(identity.token.id)
            core.instances.release(identity.instance, for: address)
            core.metrics.sessions.decrement()
        }
        _ = inbound.close()  // idempotent: a session torn down after its own close is closing already
    }
}
