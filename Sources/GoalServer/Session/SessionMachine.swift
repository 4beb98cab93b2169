import GoalDeflate
import GoalModel
import GoalWire
import Logging
import NIOCore
import NIOWebSocket

/// Every rule of one WebSocket session, as a value: its phase and inbound frames (`SessionInbound`), the handshake
/// deadline, the heartbeat, the mutation rate limit and the overloaded pause, the outbound queue, its bound and the
/// flush budget (`SessionOutbound`), the changeset stream and its catch-up (`SessionStream`), presence, the one
/// history request at a time, and how the session closes (docs/PROTOCOL.md §3, §4, §6, §7).
///
/// It takes events (a frame read, a timer due, the hello's facts, a delivery, a page read, the socket's writability,
/// a close asked for) and returns `SessionAction`s; `SessionHandler` turns NIO's events into these events and the
/// actions into writes, closes, timers and calls to its collaborators. Time and writability are inputs: the machine
/// reads no clock and calls nothing while it mutates, so nothing can re-enter it half changed. Tested directly
/// (SessionMachineTests), no socket, no clock.
///
/// Closing: a close asked for (by the session's own rules or from outside) is recorded, the first one wins, and the
/// session counts as closing at once (nothing more is written but the close); the handler performs it
/// (`takePendingClose`) when its current actions end.
///
/// Value type, confined to the session's event loop with its handler. Lifetime: the connection's.
struct SessionMachine {
    /// What a session is told when it starts.
    struct Configuration {
        var limits: ServerLimits
        var epoch: LeagueEpoch
        var nodeID: String
        var sessionID: SessionID
        var shardIndex: Int
        /// permessage-deflate was negotiated in the upgrade: changesets may go out compressed (RSV1 set).
        var negotiatedDeflate = false
        /// The channel's high write-buffer watermark (`SessionOutbound.channelHighWaterMark`).
        var channelHighWaterMark: Int
    }

    /// The session's configuration; its `epoch` becomes the league's once the hello's league is known
    /// (`helloRead`), nothing else changes after `init`.
    var configuration: Configuration
    var limits: ServerLimits { configuration.limits }
    /// Where the engine sends this session's answers.
    let address: ReplyAddress
    /// When the session must have said hello (its connection's start plus the handshake timeout).
    let handshakeDeadline: NIODeadline
    let allocator = ByteBufferAllocator()

    /// The phase and what each inbound frame means.
    var inbound: SessionInbound
    /// The queue, the bound and the flush budget.
    var outbound: SessionOutbound
    /// The changeset stream of a registered `stream: all` session (nil before registration and for `stream: acks`,
    /// whose answers are written as they come).
    var stream: SessionStream?
    /// The session's presence; nil until welcome.
    var presence: SessionPresence?
    /// Set while registered with the shard, the limiter and the instance registry; cleared by `tearDown`.
    var registration: SessionIdentity?
    /// The bytes the shard writes this session's live changesets in, fixed by the hello.
    var frameVariant = FrameVariant.full

    var mutationBucket: TokenBucket
    private(set) var lastRead: NIODeadline
    private var readsPaused = false
    /// True while a `history` request of this session is being read.
    var historyOutstanding = false
    /// A close asked for and not performed yet (the first one asked for wins).
    private(set) var pendingClose: SessionClose?

    /// A session whose connection was accepted at `connectedAt`, starting at `now`.
    init(_ configuration: Configuration, connectedAt: NIODeadline, now: NIODeadline) {
        self.configuration = configuration
        let limits = configuration.limits
        address = ReplyAddress(shard: configuration.shardIndex, session: configuration.sessionID)
        handshakeDeadline = connectedAt + .milliseconds(Int64(limits.handshakeTimeoutMilliseconds))
        inbound = SessionInbound(
            maxBytesBeforeHello: limits.maxBytesBeforeHello,
            maxMessageBytes: limits.maxInboundMessageBytes
        )
        outbound = SessionOutbound(
            bound: limits.sessionQueueBytes,
            channelHighWaterMark: configuration.channelHighWaterMark
        )
        mutationBucket = TokenBucket(rate: limits.mutationsPerSecond, capacity: limits.mutationBurst, now: now)
        lastRead = now
    }

    // MARK: - Phase

    /// Closing already while a close waits to be performed.
    var phase: SessionPhase { pendingClose != nil ? .closing : inbound.phase }

    var identity: SessionIdentity? {
        if case .open(let identity) = phase { return identity }
        return nil
    }

    /// True once a close was performed or asked for: nothing more is written but the close.
    var isClosing: Bool {
        if case .closing = phase { return true }
        return false
    }

    /// The newest changeset revision written to this session (0 before registration or for `stream: acks`).
    var sentRevision: Revision { stream?.sent ?? 0 }

    // MARK: - Timers

    /// The handshake deadline passed: a session that is not open yet fails.
    mutating func handshakeDeadlinePassed() -> [SessionAction] {
        if case .open = phase { return [] }
        fail(.handshakeTimeout, "no hello within \(limits.handshakeTimeoutMilliseconds / 1000) s of connecting")
        return []
    }

    /// The heartbeat's interval passed: fail a session that read nothing for the idle timeout, else ping it.
    mutating func heartbeatTick(now: NIODeadline) -> [SessionAction] {
        guard !isClosing else { return [] }
        if now - lastRead > .milliseconds(Int64(limits.idleTimeoutMilliseconds)) {
            fail(.heartbeatTimeout, "nothing read for \(limits.idleTimeoutMilliseconds / 1000) s")
            return []
        }
        return [.send(ServerFrameEncoder.controlFrame(.ping, payload: ByteBuffer(), allocator: allocator)), .flush]
    }

    /// The overloaded pause ended.
    mutating func readsMayResume() -> [SessionAction] {
        readsPaused = false
        return isClosing ? [] : [.resumeReads]
    }

    /// Stops reading for `milliseconds` (once: a pause in progress is not extended).
    mutating func pauseReads(milliseconds: Int) -> [SessionAction] {
        guard !readsPaused else { return [] }
        readsPaused = true
        return [.pauseReads(.milliseconds(Int64(milliseconds)))]
    }

    // MARK: - Inbound frames

    /// One inbound frame (after the decoder, the flood guard and the fragment aggregator), read at `now`.
    mutating func frameRead(opcode: WebSocketOpcode, data: ByteBuffer, now: SessionNow) -> [SessionAction] {
        lastRead = now.uptime
        switch inbound.frame(opcode: opcode, data: data) {
        case .decodeHello(let bytes, let limit):
            return decodeHello(bytes, limit: limit)
        case .decodeMessage(let bytes, let limit):
            return message(bytes, limit: limit, now: now)
        case .pong(let payload):
            return [.send(ServerFrameEncoder.controlFrame(.pong, payload: payload, allocator: allocator)), .flush]
        case .answerClose(let code):
            requestClose(.answer(code))
        case .closeConnection:
            requestClose(.drop)
        case .fail(let code, let message, let close):
            fail(code, message, close: close)
        case .none:
            break
        }
        return []
    }

    /// An error the pipeline raised beneath the session (the decoder, the flood guard, the inflater, the aggregator).
    mutating func inboundError(_ error: any Error) -> [SessionAction] {
        switch error {
        case SessionInboundError.flood:
            fail(.flood, "more than \(limits.framesPerSecond) frames a second")
        case SessionInboundError.websocketProtocol(let violation):
            fail(.badMessage, violation, close: .websocketProtocolError)
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            fail(.tooLarge, "a message exceeded \(limits.maxInboundMessageBytes) bytes")
        case let error as NIOWebSocketError:
            // Fragmented or >125-byte control frames (RFC 6455 §5.5).
            fail(.badMessage, "WebSocket protocol error: \(error)", close: .websocketProtocolError)
        case PerMessageDeflateError.messageTooLarge:
            fail(.tooLarge, "a message exceeded \(limits.maxInboundMessageBytes) bytes once inflated")
        case PerMessageDeflateError.corruptData:
            fail(.badMessage, "\(error)", close: .invalidFramePayloadData)
        case let error as PerMessageDeflateError:
            fail(.badMessage, "\(error)", close: .websocketProtocolError)
        case let error as NIOWebSocketFrameAggregator.Error:
            // A continuation without a message started, a new message inside a fragmented one (RFC 6455 §5.4).
            fail(.badMessage, "fragmented message error: \(error)", close: .websocketProtocolError)
        default:
            requestClose(.drop)
            return [.log(.debug, "session channel error", ["goal.error": "\(error)"])]
        }
        return []
    }

    /// The text frames pipelined behind the accepted hello, one at a time, in order.
    mutating func pipelined(_ frame: ByteBuffer, now: SessionNow) -> [SessionAction] {
        guard case .open = phase else { return [] }
        return message(frame, limit: limits.maxInboundMessageBytes, now: now)
    }

    // MARK: - Closing

    /// Sends `error{code, message}` and the close code that goes with it, then closes.
    mutating func fail(_ code: WireErrorCode, _ message: String, close closeCode: CloseCode? = nil) {
        requestClose(.error(code, message, closeCode: closeCode))
    }

    /// Asks for a close; the first one asked for is the one performed (`takePendingClose`).
    mutating func requestClose(_ close: SessionClose) {
        if pendingClose == nil { pendingClose = close }
    }

    /// The slow-consumer policy: drop the queue, send 4008 after what is already in the socket, abort after a grace.
    mutating func slowConsumer(reason: String) -> [SessionAction] {
        guard !isClosing else { return [] }
        fail(.slowConsumer, "slow consumer: \(reason); reconnect and resume from your revision")
        return [.count(.slowConsumerClose)]
    }

    /// Performs the close asked for, if any. A session closes once: after that, only the peer's answer to our
    /// close (`drop`) still does something (the connection ends now).
    mutating func takePendingClose() -> [SessionAction]? {
        guard let close = pendingClose else { return nil }
        pendingClose = nil
        guard inbound.close() else { return close == .drop ? [.closeNow] : [] }
        var actions = leavePresence()
        actions += dropQueue()
        switch close {
        case .error(let code, let message, let closeCode):
            let closeCode = closeCode ?? code.closeCode
            actions.append(.count(.close(code: closeCode.rawValue)))
            actions.append(
                .log(.debug, "closing session", ["goal.close.code": "\(closeCode)", "goal.close.reason": "\(message)"])
            )
            let error = ServerFrameEncoder.textFrame(
                ServerMessage.error(code: code, message: message).encoded(),
                allocator: allocator
            )
            let frame = ServerFrameEncoder.closeFrame(
                code: closeCode.rawValue,
                reason: code.rawValue,
                allocator: allocator
            )
            outbound.flushed()
            let end =
                code == .slowConsumer
                ? ConnectionEnd.abortAfter(.milliseconds(Int64(limits.slowConsumerAbortMilliseconds)))
                : .closeAfter(.seconds(2))
            actions.append(.writeClose(error: error, close: frame, then: end))
        case .answer(let code):
            let frame = ServerFrameEncoder.closeFrame(code: code, reason: "", allocator: allocator)
            actions.append(.writeClose(error: nil, close: frame, then: .onceWritten))
        case .drop:
            actions.append(.closeNow)
        }
        return actions
    }

    private mutating func dropQueue() -> [SessionAction] {
        stream = nil
        let bytes = outbound.dropQueue()
        return bytes > 0 ? [.uncountQueued(bytes)] : []
    }

    /// The channel went inactive or the handler was removed: releases everything the session holds. Idempotent.
    mutating func tearDown() -> [SessionAction] {
        var actions = leavePresence()
        actions += dropQueue()
        if let identity = registration {
            registration = nil
            actions.append(.unregister(identity))
            actions.append(.count(.sessionClosed))
        }
        _ = inbound.close()  // idempotent: a session torn down after its own close is closing already
        return actions
    }
}
