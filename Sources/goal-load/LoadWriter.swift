import Foundation
import GoalClient
import GoalModel
import GoalTransport
import GoalWire
import NIOCore

/// One writer connection (`stream: acks`): keeps up to `window` mutations in flight, paced to its share of the
/// target rate (or flat out), and counts every answer.
///
/// Connecting and reconnecting are the shared `ResumeDriver`'s, as for subscribers: a lost connection moves on to
/// the next node at once and waits `BackoffPolicy.loadGenerator` (0.1–0.3 s by index) once every node failed in a
/// row; a terminal close stops it. A writer resumes no position (same instance, new seqs).
///
/// Threading: events and sends happen on the connection's event loop (a repeating 10 ms tick refills the rate
/// credit on one loop); `state` is touched only with the driver's lock held, so the runner can start, stop and read
/// it from its task: hence `@unchecked Sendable`. Lifetime: held by the runner for the whole run; reconnects while
/// the run is going.
final class LoadWriter: ResumeDriverDelegate, @unchecked Sendable {
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
    private let driver: ResumeDriver
    /// Guarded by the driver's lock.
    private var state: WriterState
    /// The tick and the event loop it runs on (pumps run there too); guarded by the driver's lock.
    private var tick: (task: RepeatedTask, loop: any EventLoop)?

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
        server: Int = 0,
        league: LeagueSlug? = nil
    ) {
        self.index = index
        self.slot = slot
        self.instance = instance
        self.context = context
        self.window = max(1, window)
        self.rate = rate
        self.sendTimes = sendTimes
        self.phase = phase
        let servers = max(context.serverCount, 1)
        driver = ResumeDriver(
            machine: ResumeSession(policy: .loadGenerator, serverCount: servers, server: server % servers),
            options: ResumeDriver.Options(
                token: context.token,
                instance: instance,
                stream: .acks,
                resumesPosition: false,
                heartbeat: nil,
                failures: .retry,
                helloTiming: .onOpen,
                league: league
            ),
            transport: SlotTransport(context: context, slot: slot),
            execution: .inline(timers: context.timers),
            jitter: ConstantJitter(Double(index % 200) / 200)
        )
        state = WriterState(
            source: source,
            credit: SendCredit(
                rate: rate,
                window: self.window,
                arrivals: arrivals,
                seed: UInt64(bitPattern: Int64(index + 1))
            )
        )
        driver.attach(self)
    }

    /// The node (an index into the run's URLs) this writer writes to now: it starts on the one it was given and
    /// moves on to the next when its connection is lost.
    var server: Int { driver.machine.server }

    /// Opens the connection (hello goes out at once) and starts the tick on its event loop.
    func connect() {
        driver.withLock {
            driver.start()
            let loop = (driver.connection as? WebSocketConnection)?.eventLoop ?? context.group.any()
            let task = loop.scheduleRepeatedTask(initialDelay: .milliseconds(10), delay: .milliseconds(10)) {
                [self] _ in self.onTick()
            }
            tick?.task.cancel()
            tick = (task, loop)
        }
    }

    /// Sends exactly these actions (setup), as fast as the window allows.
    func run(script: [MutationAction]) {
        driver.withLock {
            state.script = script
            state.sending = true
        }
        pumpOnLoop()
    }

    /// Starts or stops the measured phase.
    func setSending(_ on: Bool) {
        driver.withLock {
            state.sending = on
            if on { state.credit.start(phase: phase) }
        }
        if on { pumpOnLoop() }
    }

    /// Closes the connection and stops the tick.
    func disconnect() {
        driver.withLock {
            tick?.task.cancel()
            tick = nil
            state.ready = false
            state.sending = false
            driver.stop()
        }
    }

    var isReady: Bool { driver.withLock { state.ready } }
    var inFlight: Int { driver.withLock { state.inFlight } }
    var counters: WriterCounters { driver.withLock { state.counters } }
    var knownRevision: Revision { driver.withLock { state.knownRevision } }
    var scriptDone: Bool { driver.withLock { state.scriptIndex >= state.script.count && state.inFlight == 0 } }

    private func pumpOnLoop() {
        guard let loop = driver.withLock({ tick?.loop }) else { return }
        loop.execute { [self] in self.pump() }
    }

    private func onTick() {
        let now = MonotonicClock.nanoseconds()
        driver.withLock { state.credit.tick(at: now, earning: state.sending) }
        pump()
    }

    /// Sends as many mutations as the window, the rate credit and any pause allow.
    private func pump() {
        let now = MonotonicClock.nanoseconds()
        let (connection, messages) = driver.withLock { () -> ((any TransportConnection)?, [[UInt8]]) in
            guard state.ready, state.sending, now >= state.pausedUntil, let connection = driver.connection else {
                return (nil, [])
            }
            var messages: [[UInt8]] = []
            let scripted = !state.script.isEmpty
            while state.inFlight < window {
                if scripted {
                    guard state.scriptIndex < state.script.count else { break }
                } else if rate > 0 {
                    guard state.credit.spend() else { break }
                }
                let seq = state.nextSeq
                state.nextSeq += 1
                let action: MutationAction
                let base: Revision
                if scripted {
                    action = state.script[state.scriptIndex]
                    base = state.knownRevision
                    state.scriptIndex += 1
                } else {
                    let kind: MutationMix.Kind
                    (action, base, kind) = state.source.next(knownRevision: state.knownRevision)
                    state.counters.sentByKind[kind.rawValue, default: 0] += 1
                }
                state.inFlight += 1
                state.counters.sent += 1
                sendTimes?.record(seq: seq, at: now)
                messages.append(ClientMessage.mutate(.init(seq: seq, base: base, action: action)).encoded())
            }
            return (connection, messages)
        }
        guard let connection else { return }
        for message in messages { connection.send(message) }
    }

    // MARK: ResumeDriverDelegate (with the driver's lock held)

    func resumeDriver(_ driver: ResumeDriver, connecting attempt: Int, server: Int, after loss: ResumeDriver.Loss?) {
        state.ready = false
        if loss != nil { sendTimes?.moved(to: server) }
    }

    func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict {
        // goald's messages always decode; were one not to, the convergence check would report what it cost.
        guard let message = try? ServerMessage.decode(bytes) else { return .proceed }  // see the line above
        if case .welcome = message, let event = ResumeSession.StreamEvent(message) {
            // The machine counts the welcome: the next loss starts its backoff over.
            _ = driver.updateMachine { $0.receive(event) }
        }
        if receive(message, &state) { pump() }
        return .proceed
    }

    func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?) {
        guard loss != nil else { return }
        state.ready = false
        state.counters.unanswered += state.inFlight
        state.inFlight = 0
        state.counters.reconnects += 1
    }

    func resumeDriver(_ driver: ResumeDriver, waiting attempt: Int, delay: TimeInterval, after loss: ResumeDriver.Loss?)
    {
        sendTimes?.moved(to: driver.machine.server)
    }

    func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason) {}

    func resumeDriverMayResume(_ driver: ResumeDriver) -> Bool { context.isRunning }

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
