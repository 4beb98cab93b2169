import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import NIOCore
import NIOWebSocket
import Testing

@testable import GoalServer

/// Every session rule on `SessionMachine` directly (issue 36 point 1): events in, actions out, time an input. No
/// socket, no channel, no clock.
@Suite("the session machine: every session rule as events and actions", .slotted)
struct SessionMachineTests: SessionMachineFixtures {
    // MARK: - Handshake, heartbeat

    @Test("the handshake deadline fails a session that has not said hello, and not an open one")
    func handshakeDeadline() {
        var waiting = Self.machine()
        #expect(
            waiting.handshakeDeadline == Self.start + .milliseconds(Int64(ServerLimits().handshakeTimeoutMilliseconds))
        )
        _ = waiting.handshakeDeadlinePassed()
        let close = waiting.takePendingClose()
        #expect(Self.text(close ?? []).contains(WireErrorCode.handshakeTimeout.rawValue))
        #expect(Self.closeCode(close) == WireErrorCode.handshakeTimeout.closeCode.rawValue)

        var open = Self.machine(open: Self.live)
        _ = open.handshakeDeadlinePassed()
        #expect(open.takePendingClose() == nil)
    }

    @Test("the heartbeat pings while frames arrive within the idle timeout, and fails the session after it")
    func heartbeat() {
        var limits = ServerLimits()
        limits.idleTimeoutMilliseconds = 1_000
        var machine = Self.machine(limits, open: Self.live)
        let ping = machine.heartbeatTick(now: Self.start + .milliseconds(1_000))
        #expect(ping.count == 2, "a ping and a flush")
        #expect(machine.pendingClose == nil)
        _ = machine.frameRead(opcode: .pong, data: ByteBuffer(), now: Self.at(milliseconds: 1_500))
        #expect(machine.heartbeatTick(now: Self.start + .milliseconds(2_500)).count == 2, "read 1 s ago: still alive")
        _ = machine.heartbeatTick(now: Self.start + .milliseconds(2_501))
        #expect(Self.closeCode(machine.takePendingClose()) == WireErrorCode.heartbeatTimeout.closeCode.rawValue)
        #expect(machine.heartbeatTick(now: Self.start + .seconds(10)).isEmpty, "a closed session pings no more")
    }

    // MARK: - Limits

    @Test("mutations past the bucket are answered rate_limited with the wait, and submitted again once it refilled")
    func mutationRateLimit() {
        var limits = ServerLimits()
        limits.mutationsPerSecond = 2
        limits.mutationBurst = 1
        var machine = Self.machine(limits, open: Self.live)
        let first = machine.frameRead(opcode: .text, data: Self.mutate(1), now: Self.at(milliseconds: 0))
        guard case .submit(_, let seq) = first.first else {
            Issue.record("expected a submit, got \(first)")
            return
        }
        #expect(seq == 1)
        let second = machine.frameRead(opcode: .text, data: Self.mutate(2), now: Self.at(milliseconds: 0))
        #expect(Self.text(second).contains(#""type":"rate_limited""#))
        #expect(Self.text(second).contains(#""retry_after_ms":500"#), Comment(rawValue: Self.text(second)))
        let third = machine.frameRead(opcode: .text, data: Self.mutate(3), now: Self.at(milliseconds: 500))
        #expect(third.contains { if case .submit = $0 { true } else { false } })
        #expect(machine.pendingClose == nil, "rate limiting never closes the session")
    }

    @Test("a full engine inbox answers overloaded and pauses reads once, resumed after the advised wait")
    func overloadedPause() {
        var machine = Self.machine(open: Self.live)
        let refused = machine.submitRefused(seq: 4)
        #expect(Self.text(refused).contains(#""type":"overloaded""#))
        let delay = TimeAmount.milliseconds(Int64(ServerLimits().overloadedRetryMilliseconds))
        #expect(refused.contains { if case .pauseReads(delay) = $0 { true } else { false } })
        let again = machine.submitRefused(seq: 5)
        #expect(!again.contains { if case .pauseReads = $0 { true } else { false } }, "a pause is not extended")
        #expect(machine.readsMayResume().count == 1)
    }

    // MARK: - Outbound

    @Test("the queue bound: frames queue while unwritable; past the bound 4008 follows, the queue is dropped")
    func slowConsumerSequence() {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 1_000
        var machine = Self.machine(limits, open: Self.live)
        let frame = ByteBuffer(repeating: 0x2E, count: 400)
        guard case .write = machine.send(frame, writable: true) else {
            Issue.record("a writable socket with nothing queued takes the frame now")
            return
        }
        for _ in 0..<2 {
            guard case .queued(400, let then) = machine.send(frame, writable: false), then.isEmpty else {
                Issue.record("within the bound the frame queues")
                return
            }
        }
        guard case .queued(400, let then) = machine.send(frame, writable: false) else {
            Issue.record("past the bound the frame still counts")
            return
        }
        #expect(then.contains { if case .count(.slowConsumerClose) = $0 { true } else { false } })
        #expect(machine.isClosing)
        guard case .none = machine.send(frame, writable: true) else {
            Issue.record("nothing is written after the close is asked for")
            return
        }
        let close = machine.takePendingClose() ?? []
        #expect(close.contains { if case .uncountQueued(1_200) = $0 { true } else { false } })
        #expect(Self.closeCode(close) == 4008)
        let grace = TimeAmount.milliseconds(Int64(limits.slowConsumerAbortMilliseconds))
        #expect(close.contains { if case .writeClose(_, _, .abortAfter(grace)) = $0 { true } else { false } })
        #expect(machine.outbound.queuedBytes == 0)
    }

    @Test("the bound covers what NIO holds after a flush, catch-up bytes excepted; the global cap evicts")
    func boundAfterFlush() {
        var limits = ServerLimits()
        limits.sessionQueueBytes = 300 * 1024
        limits.globalQueueBytes = 1_000
        var machine = Self.machine(limits, open: Self.live)
        #expect(!machine.needsBufferedBytes(writable: true), "a writable channel holds at most its watermark")
        #expect(machine.needsBufferedBytes(writable: false))
        _ = machine.sendCatchUp(ByteBuffer(repeating: 0, count: 100 * 1024))
        #expect(machine.bufferedBytes(350 * 1024).isEmpty, "250 KiB live and 100 KiB catch-up fit")
        machine.catchUpWritten(100 * 1024)
        #expect(Self.names(machine.globalQueueTotal(1_001)) == ["evictLargestQueue"])
        #expect(!machine.bufferedBytes(350 * 1024).isEmpty)
        #expect(Self.closeCode(machine.takePendingClose()) == 4008)
        #expect(machine.globalQueueTotal(1_001).isEmpty, "a closing session evicts no one")
    }

    @Test("the flush budget: a flush is due after a write and only then; a large write goes in flushed pieces")
    func flushBudget() {
        var machine = Self.machine(open: Self.live)
        let flushBeforeWriting = machine.takeFlush()
        #expect(!flushBeforeWriting)
        guard case .write(_, let plan) = machine.send(ByteBuffer(repeating: 0, count: 40_000), writable: true) else {
            Issue.record("expected a write")
            return
        }
        #expect(plan.wholePieces == 2 && plan.pieceLength == TLSFlushBudget.largestPiece)
        let flushAfterWrite = machine.takeFlush()
        #expect(flushAfterWrite)
        let flushAgain = machine.takeFlush()
        #expect(!flushAgain)
    }

    // MARK: - Closing

    @Test("close sequencing: the first close asked for wins; a closed session closes once; the peer's answer ends it")
    func closeSequencing() {
        var machine = Self.machine(open: Self.live)
        machine.fail(.tokenRevoked, "first")
        machine.fail(.shuttingDown, "second")
        let close = machine.takePendingClose()
        #expect(Self.text(close ?? []).contains("first"))
        #expect(!Self.text(close ?? []).contains("second"))
        #expect(
            close?.contains { if case .writeClose(_, _, .closeAfter(.seconds(2))) = $0 { true } else { false } } == true
        )
        machine.fail(.internalError, "later")
        #expect(Self.names(machine.takePendingClose()) == [], "a session closes once")
        _ = machine.frameRead(opcode: .connectionClose, data: ByteBuffer(), now: Self.at(milliseconds: 0))
        #expect(
            Self.names(machine.takePendingClose()) == ["closeNow"],
            "the peer answered our close: the connection ends now"
        )
    }

    @Test("the peer's close is answered with its code, then the connection closes once that is written")
    func peerClose() {
        var machine = Self.machine(open: Self.live)
        var payload = ByteBuffer()
        payload.writeInteger(UInt16(1001))
        _ = machine.frameRead(opcode: .connectionClose, data: payload, now: Self.at(milliseconds: 0))
        let close = machine.takePendingClose()
        #expect(Self.closeCode(close) == 1001)
        #expect(close?.contains { if case .writeClose(nil, _, .onceWritten) = $0 { true } else { false } } == true)
    }

    @Test(
        "bad input: binary, a reserved opcode, invalid UTF-8, too much before hello, not hello first, flood",
        arguments: [
            ("binary", WireErrorCode.badMessage.closeCode.rawValue),
            ("reserved", UInt16(1002)),
            ("utf8", UInt16(1007)),
            ("large", WireErrorCode.tooLarge.closeCode.rawValue),
            ("not-hello", WireErrorCode.notAuthenticated.closeCode.rawValue),
            ("flood", WireErrorCode.flood.closeCode.rawValue),
        ]
    )
    func badInput(input: String, code: UInt16) {
        var machine = Self.machine()
        let now = Self.at(milliseconds: 0)
        switch input {
        case "binary": _ = machine.frameRead(opcode: .binary, data: ByteBuffer(string: "x"), now: now)
        case "reserved":
            _ = machine.frameRead(opcode: WebSocketOpcode(encodedWebSocketOpcode: 3)!, data: ByteBuffer(), now: now)
        case "utf8": _ = machine.frameRead(opcode: .text, data: ByteBuffer(bytes: [0x7B, 0xFF, 0x7D]), now: now)
        case "large": _ = machine.frameRead(opcode: .text, data: ByteBuffer(repeating: 0x20, count: 5_000), now: now)
        case "not-hello": _ = machine.frameRead(opcode: .text, data: Self.mutate(1), now: now)
        default: _ = machine.inboundError(SessionInboundError.flood)
        }
        #expect(Self.closeCode(machine.takePendingClose()) == code)
    }

    // MARK: - Presence, history

    @Test("presence announcements past the bucket are coalesced behind one timer, the latest applied when it fires")
    func presenceThrottle() {
        var limits = ServerLimits()
        limits.presence.announcementsPerSecond = 1
        limits.presence.announcementBurst = 1
        var machine = Self.machine(limits, open: Self.live)
        let hello = ClientMessage.Hello(token: "gt_x", clientInstance: .random())
        let identity = machine.registration!
        let opened = machine.openPresence(hello, identity: identity, now: Self.at(milliseconds: 0))
        #expect(opened.contains { if case .presence(.set) = $0 { true } else { false } })
        let first = machine.receivePresence(.viewing(nil), now: Self.at(milliseconds: 0))
        #expect(
            first.contains {
                if case .presence(.set(let member)) = $0 { member.activity == .viewing(nil) } else { false }
            }
        )
        let second = machine.receivePresence(.editing(MatchID()), now: Self.at(milliseconds: 10))
        #expect(second.contains { if case .schedulePresenceTimer = $0 { true } else { false } })
        let third = machine.receivePresence(.online, now: Self.at(milliseconds: 20))
        #expect(Self.names(third) == ["count"], "one timer; the latest announcement wins")
        let fired = machine.presenceTimerFired(now: Self.at(milliseconds: 1_000))
        #expect(
            fired.contains { if case .presence(.set(let member)) = $0 { member.activity == .online } else { false } }
        )
        let left = machine.leavePresence()
        #expect(left.contains { if case .presence(.leave) = $0 { true } else { false } })
        #expect(machine.leavePresence().isEmpty, "leaving is idempotent")
    }

    @Test("history: one request at a time, a second one is refused busy until the first is answered")
    func historyOneAtATime() {
        var machine = Self.machine(open: Self.live)
        let request = ByteBuffer(
            string: #"{"type":"history","entity":"match","id":"c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f","limit":1}"#
        )
        let first = machine.frameRead(opcode: .text, data: request, now: Self.at(milliseconds: 0))
        #expect(first.contains { if case .readHistory = $0 { true } else { false } }, "\(first)")
        let second = machine.frameRead(opcode: .text, data: request, now: Self.at(milliseconds: 0))
        #expect(Self.text(second).contains("busy"))
        _ = machine.historyRead(.failure(StorageError.database(operation: "read", detail: "disk")))
        #expect(Self.closeCode(machine.takePendingClose()) == WireErrorCode.internalError.closeCode.rawValue)
    }

    // MARK: - Catch-up

    @Test("catch-up then live: answers held while catching up, a page read, then caught_up and the held answer")
    func catchUpThenLive() {
        var machine = Self.machine(open: SessionStream(mode: .backlog, since: 0, head: 2))
        let held = machine.reply(ByteBuffer(string: "ack-9"))
        #expect(held.isEmpty, "held while catching up")
        guard case .perform(.readBacklogPage(after: 0, upTo: 2)) = machine.catchUpStep(writable: true, loopHead: 2)
        else {
            Issue.record("expected a page read")
            return
        }
        guard case .wait = machine.catchUpStep(writable: true, loopHead: 2) else {
            Issue.record("one page in flight at a time")
            return
        }
        let page = machine.backlogPageRead(.success((ByteBuffer(string: "<1><2>"), 2)), after: 0)
        #expect(Self.text(page) == "<1><2>")
        guard case .write(let writes, thenFlush: true) = machine.catchUpStep(writable: true, loopHead: 2) else {
            Issue.record("expected the switch to live")
            return
        }
        let frames = writes.map { write -> String in
            switch machine.send(write, writable: true) {
            case .write(let frame, _): String(buffer: frame)
            default: ""
            }
        }
        #expect(frames.first?.contains("caught_up") == true)
        #expect(frames.last == "ack-9")
        #expect(machine.stream?.isLive == true)
    }
}
