import GoalClient
import GoalLocking
import GoalModel
import GoalTransport
import GoalWire
import NIOCore

/// One writer connection (`stream: acks`): keeps up to `window` mutations in flight, paced to its share of the
/// target rate (or flat out), and counts every answer.
///
/// Threading: events and sends happen on the connection's event loop (a repeating 10 ms tick refills the rate
/// credit there); the state lives in a `LockedValue` so the runner can start, stop and read it from its task. Lifetime:
/// held by the runner for the whole run; reconnects (same instance, new seqs) while the run is going.
final class LoadWriter: Sendable {
    let index: Int
    /// Connection slot (for the source address): after the subscribers.
    let slot: Int
    let instance: ClientInstanceID
    private let context: LoadContext
    private let window: Int
    /// Mutations per second for this writer; 0 = flat out.
    private let rate: Double
    private let sendTimes: SendTimes?
    /// The fraction of a unit of send credit the measured phase starts with (`SendCredit.start(phase:)`).
    private let phase: Double
    let state: LockedValue<WriterState>
    private let tick = LockedValue<RepeatedTask?>(nil)

    init(
        index: Int,
        slot: Int,
        instance: ClientInstanceID,
        context: LoadContext,
        window: Int,
        rate: Double,
        source: MutationSource,
        sendTimes: SendTimes?,
        arrivals: Arrivals = .even,
        phase: Double = 0,
        server: Int = 0
    ) {
        self.index = index
        self.slot = slot
        self.instance = instance
        self.context = context
        self.window = max(1, window)
        self.rate = rate
        self.sendTimes = sendTimes
        self.phase = phase
        self.state = LockedValue(
            WriterState(
                source: source,
                credit: SendCredit(
                    rate: rate,
                    window: self.window,
                    arrivals: arrivals,
                    seed: UInt64(bitPattern: Int64(index + 1))
                ),
                server: server % max(context.serverCount, 1)
            )
        )
    }

    /// The node (an index into the run's URLs) this writer writes to now: it starts on the one it was given and
    /// moves on to the next when its connection is lost.
    var server: Int { state.withLock { $0.server } }

    /// Opens the connection and sends hello.
    func connect() {
        let (generation, server) = state.withLock { s -> (Int, Int) in
            s.generation += 1
            s.ready = false
            return (s.generation, s.server)
        }
        let connection = context.open(slot: slot, server: server) { [self] event in
            self.handle(event, generation: generation)
        }
        let hello = ClientMessage.hello(
            ClientMessage.Hello(token: context.token, clientInstance: instance, stream: .acks)
        )
        connection.send(hello.encoded())
        state.withLock { $0.connection = connection }
        let task = connection.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(10), delay: .milliseconds(10))
        {
            [self] _ in self.onTick()
        }
        tick.withLock { old in
            old?.cancel()
            old = task
        }
    }

    /// Sends exactly these actions (setup), as fast as the window allows.
    func run(script: [MutationAction]) {
        state.withLock {
            $0.script = script
            $0.sending = true
        }
        pumpOnLoop()
    }

    /// Starts or stops the measured phase.
    func setSending(_ on: Bool) {
        state.withLock { s in
            s.sending = on
            if on { s.credit.start(phase: phase) }
        }
        if on { pumpOnLoop() }
    }

    /// Closes the connection and stops the tick.
    func disconnect() {
        tick.withLock { task in
            task?.cancel()
            task = nil
        }
        let connection = state.withLock { s -> WebSocketConnection? in
            s.generation += 1
            s.ready = false
            s.sending = false
            defer { s.connection = nil }
            return s.connection
        }
        connection?.close(code: 1000)
    }

    var isReady: Bool { state.withLock { $0.ready } }
    var inFlight: Int { state.withLock { $0.inFlight } }
    var counters: WriterCounters { state.withLock { $0.counters } }
    var knownRevision: Revision { state.withLock { $0.knownRevision } }
    var scriptDone: Bool { state.withLock { $0.scriptIndex >= $0.script.count && $0.inFlight == 0 } }

    private func pumpOnLoop() {
        guard let loop = state.withLock({ $0.connection?.eventLoop }) else { return }
        loop.execute { [self] in self.pump() }
    }

    private func onTick() {
        let now = MonotonicClock.nanoseconds()
        state.withLock { s in s.credit.tick(at: now, earning: s.sending) }
        pump()
    }

    /// Sends as many mutations as the window, the rate credit and any pause allow.
    private func pump() {
        let now = MonotonicClock.nanoseconds()
        let (connection, messages) = state.withLock { s -> (WebSocketConnection?, [[UInt8]]) in
            guard s.ready, s.sending, now >= s.pausedUntil, let connection = s.connection else { return (nil, []) }
            var messages: [[UInt8]] = []
            let scripted = !s.script.isEmpty
            while s.inFlight < window {
                if scripted {
                    guard s.scriptIndex < s.script.count else { break }
                } else if rate > 0 {
                    guard s.credit.spend() else { break }
                }
                let seq = s.nextSeq
                s.nextSeq += 1
                let action: MutationAction
                let base: Revision
                if scripted {
                    action = s.script[s.scriptIndex]
                    base = s.knownRevision
                    s.scriptIndex += 1
                } else {
                    let kind: MutationMix.Kind
                    (action, base, kind) = s.source.next(knownRevision: s.knownRevision)
                    s.counters.sentByKind[kind.rawValue, default: 0] += 1
                }
                s.inFlight += 1
                s.counters.sent += 1
                sendTimes?.record(seq: seq, at: now)
                messages.append(ClientMessage.mutate(.init(seq: seq, base: base, action: action)).encoded())
            }
            return (connection, messages)
        }
        guard let connection else { return }
        for message in messages { connection.send(message) }
    }

    private func handle(_ event: TransportEvent, generation: Int) {
        switch event {
        case .connected, .pong:
            return
        case .message(let bytes):
            // goald's messages always decode; were one not to, the convergence check would report what it cost.
            guard let message = try? ServerMessage.decode(bytes) else { return }
            let resume = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                return receive(message, &s)
            }
            if resume { pump() }
        case .closed, .failed:
            let again = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.ready = false
                s.counters.unanswered += s.inFlight
                s.inFlight = 0
                s.counters.reconnects += 1
                s.server = (s.server + 1) % max(context.serverCount, 1)
                sendTimes?.moved(to: s.server)
                return true
            }
            if again, context.isRunning {
                state.withLock { $0.connection }?.eventLoop.scheduleTask(in: .milliseconds(200)) { [self] in
                    if self.context.isRunning { self.connect() }
                }
            }
        }
    }

    /// Applies one answer. - Returns: true when more may be sent now.
    private func receive(_ message: ServerMessage, _ s: inout WriterState) -> Bool {
        let now = MonotonicClock.nanoseconds()
        switch message {
        case .welcome(let welcome):
            s.ready = true
            s.knownRevision = max(s.knownRevision, welcome.head)
        case .ack(_, let revision, let noop):
            s.inFlight -= 1
            if noop { s.counters.noops += 1 } else { s.counters.accepted += 1 }
            s.knownRevision = max(s.knownRevision, revision)
        case .rejected(_, let rejection):
            s.inFlight -= 1
            s.counters.rejections[rejection.code.rawValue, default: 0] += 1
        case .rateLimited(let seq, let retry):
            if seq != nil { s.inFlight -= 1 }
            s.counters.rateLimited += 1
            s.pausedUntil = now + UInt64(max(1, retry)) * 1_000_000
        case .overloaded(_, let retry):
            s.inFlight = max(0, s.inFlight - 1)
            s.counters.overloaded += 1
            s.pausedUntil = now + UInt64(max(1, retry)) * 1_000_000
        case .error(let code, let text):
            if s.problems.count < 5 { s.problems.append("server error \(code.rawValue): \(text)") }
        default:
            break
        }
        return true
    }
}
