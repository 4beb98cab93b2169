public import Foundation
public import GoalReactive
public import GoalWire

/// The one driver of the resume rules: it runs a `ResumeSession` on a `Transport` — connect, hello, welcome and
/// catch-up, live, and on a loss the machine's failover and backoff, then resume — and runs the heartbeat (pings,
/// the dead-peer check). `GoalClient`, `goal-client tail` and goal-load's subscribers and writers all use it; each
/// tells it, through its `ResumeDriverDelegate`, what its messages mean, and hears about connects, waits and stops.
///
/// The machine decides, the driver carries out: it owns the current connection, its generation (events of an older
/// connection are ignored), the retry, ping and dead-peer timers, and the last ping's round-trip time. Policies come
/// from `BackoffPolicy` (in the machine) and `HeartbeatPolicy` (in `Options`).
///
/// Threading: one model, a lock plus an execution context (`Execution`): every input, transport event and timer
/// runs with `lock` held (recursive, so delegate methods may call back), either hopped onto a serial scheduler or
/// at once on the delivering thread. `@unchecked Sendable` because of that lock: every stored `var` is touched only
/// with it held. Owners that keep state beside the driver guard it with the same lock (`perform`, `withLock`).
/// Lifetime: held by its owner; timers hold the driver until they fire or it stops; transport events do not.
public final class ResumeDriver: @unchecked Sendable {
    /// What the hellos say and how the driver runs.
    public let options: Options
    private let transport: any Transport
    private let scheduler: any DateScheduler
    private let runsInline: Bool
    private let jitter: any JitterSource
    private let lock = NSRecursiveLock()

    // Guarded by `lock`.
    private weak var delegate: (any ResumeDriverDelegate)?
    private var storedMachine: ResumeSession
    private var storedConnection: (any TransportConnection)?
    private var storedGeneration: UInt64 = 0
    private var everWelcomed = false
    private var pingSentAt: Date?
    private var storedRoundTrip: TimeInterval?
    private var retryTimer: (any Disposable)?
    private var pingTimer: (any Disposable)?
    private var deadPeerTimer: (any Disposable)?

    /// Creates an idle driver; nothing happens until `start()`.
    /// - Parameters:
    ///   - machine: The resume rules, with the position to resume from, the backoff and the server count.
    ///   - options: What the hellos say, heartbeat, failure rule.
    ///   - transport: Opens connections by server index.
    ///   - execution: Where the driver runs (and its clock).
    ///   - jitter: Random units for the backoff's jitter.
    public init(
        machine: ResumeSession,
        options: Options,
        transport: any Transport,
        execution: Execution,
        jitter: any JitterSource = SystemJitter()
    ) {
        storedMachine = machine
        self.options = options
        self.transport = transport
        self.jitter = jitter
        switch execution {
        case .serial(let scheduler):
            self.scheduler = scheduler
            runsInline = false
        case .inline(let timers):
            scheduler = timers
            runsInline = true
        }
    }

    /// Sets the delegate (held weakly). Call before `start()`.
    public func attach(_ delegate: any ResumeDriverDelegate) {
        withLock { self.delegate = delegate }
    }

    // MARK: Context

    /// Runs `body` in the driver's context with its lock held: hopped onto the scheduler, or at once when inline.
    public func perform(_ body: @escaping () -> Void) {
        if runsInline {
            withLock(body)
        } else {
            scheduler.schedule { [self] in withLock(body) }
        }
    }

    /// Runs `body` at `date` in the driver's context with its lock held. - Returns: cancels it.
    @discardableResult
    public func perform(at date: Date, _ body: @escaping () -> Void) -> (any Disposable)? {
        scheduler.schedule(after: date) { [self] in withLock(body) }
    }

    /// Runs `body` with the driver's lock held, on the current thread (for code already in the driver's context,
    /// or that only reads).
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The context's clock.
    public var now: Date { scheduler.currentDate }

    // MARK: Inputs (in the driver's context: inside `perform`, a timer of it, or a delegate method)

    /// Starts connecting (from idle, or again after a stop).
    public func start() {
        withLock { execute(storedMachine.start(), after: nil) }
    }

    /// Stops for good: closes the connection with 1000, cancels every timer; `stopped(.requested)` follows.
    public func stop() {
        withLock { execute(storedMachine.stop(), after: nil) }
    }

    /// Skips a pending backoff wait, if any (a person asked to reconnect now).
    public func reconnectNow() {
        withLock {
            guard case .waiting = storedMachine.reconnect.state else { return }
            cancel(&retryTimer)
            execute(storedMachine.reconnectNow(), after: nil)
        }
    }

    /// Gives up on the current connection (say, the owner's own check failed outside a message): closes it with
    /// `code` and resumes from the position after the machine's backoff.
    public func abandon(code: CloseCode, reason: String) {
        withLock {
            guard let connection = storedConnection else { return }
            connection.close(code: code.rawValue)
            let loss = Loss.abandoned(code, reason: reason)
            drop(loss)
            execute(storedMachine.abandon(reason: reason, unit: jitter.nextUnit()), after: loss)
        }
    }

    /// Sends one message on the current connection; dropped without one.
    public func send(_ message: [UInt8]) {
        withLock { storedConnection?.send(message) }
    }

    // MARK: Reading

    /// The resume machine: position, phase, reconnect state, server.
    public var machine: ResumeSession { withLock { storedMachine } }

    /// Lends the machine to `body` (reading a stream event, rewinding). `body` must not call the driver.
    public func updateMachine<Result>(_ body: (inout ResumeSession) throws -> Result) rethrows -> Result {
        try withLock { try body(&storedMachine) }
    }

    /// The current connection, opening or open.
    public var connection: (any TransportConnection)? { withLock { storedConnection } }

    /// Counts connections: bumped when one opens and when it is lost, so work armed for one can tell it is stale.
    public var generation: UInt64 { withLock { storedGeneration } }

    /// The last pong's round-trip time (kept across connections).
    public var roundTrip: TimeInterval? { withLock { storedRoundTrip } }

    // MARK: Carrying out the machine's actions

    private func execute(_ action: ReconnectMachine.Action, after loss: Loss?) {
        switch action {
        case .connect(let attempt):
            guard loss == nil || mayResume() else { return }
            open(attempt: attempt, after: loss)
        case .wait(let attempt, let delay):
            guard mayResume() else { return }
            delegate?.resumeDriver(self, waiting: attempt, delay: delay, after: loss)
            retryTimer = perform(at: now.addingTimeInterval(delay)) { [self] in
                retryTimer = nil
                guard mayResume() else { return }
                execute(storedMachine.retryTimerFired(), after: nil)
            }
        case .stop(let reason):
            storedConnection?.close(code: CloseCode.normal.rawValue)
            drop(nil)
            cancel(&retryTimer)
            delegate?.resumeDriver(self, stopped: reason)
        case .none:
            break
        }
    }

    /// Asks the delegate whether to resume; if not, stops the machine quietly.
    private func mayResume() -> Bool {
        if delegate?.resumeDriverMayResume(self) ?? true { return true }
        _ = storedMachine.stop()
        cancel(&retryTimer)
        return false
    }

    private func open(attempt: Int, after loss: Loss?) {
        storedGeneration &+= 1
        let generation = storedGeneration
        delegate?.resumeDriver(self, connecting: attempt, server: storedMachine.server, after: loss)
        guard generation == storedGeneration else { return }  // the delegate stopped or restarted the driver
        let connection = transport.connect(server: storedMachine.server) { [weak self] event in
            self?.deliver(event, generation: generation)
        }
        // Unless an event already ended this connection (a transport may report a failure before `connect` returns).
        guard generation == storedGeneration else { return }
        storedConnection = connection
        if options.helloTiming == .onOpen { sendHello(on: connection) }
    }

    private func sendHello(on connection: any TransportConnection) {
        var hello = storedMachine.connectionOpened(
            now: now,
            token: options.token,
            instance: options.instance,
            stream: options.stream,
            protocolVersion: options.protocolVersion,
            league: options.league
        )
        hello.presence = options.presence
        if !options.resumesPosition {
            hello.since = nil
            hello.epoch = nil
            hello.digest = nil
        }
        connection.send(ClientMessage.hello(hello).encoded())
    }

    private func deliver(_ event: TransportEvent, generation: UInt64) {
        if runsInline {
            lock.lock()
            defer { lock.unlock() }
            handle(event, generation: generation)
        } else {
            scheduler.schedule { [self] in withLock { handle(event, generation: generation) } }
        }
    }

    /// One transport event of connection `generation`.
    private func handle(_ event: TransportEvent, generation: UInt64) {
        guard generation == storedGeneration else { return }
        switch event {
        case .connected:
            guard let connection = storedConnection else { return }
            if options.helloTiming == .onConnected { sendHello(on: connection) }
            startHeartbeat(generation: generation)
        case .message(let bytes):
            if options.heartbeat != nil { storedMachine.read(now: now) }
            let verdict = delegate?.resumeDriver(self, received: bytes) ?? .proceed
            guard generation == storedGeneration else { return }
            if !everWelcomed, storedMachine.isAuthenticated { everWelcomed = true }
            if case .abandon(let code, let reason) = verdict { abandon(code: code, reason: reason) }
        case .pong:
            receivedPong()
        case .closed(let code, let reason):
            let (closeCode, message) =
                delegate?.resumeDriver(self, explainClose: code, reason: reason)
                ?? (code.map(CloseCode.init(rawValue:)), reason)
            let loss = Loss.closed(code: code, message: message)
            drop(loss)
            execute(
                storedMachine.connectionClosed(code: closeCode, message: message, unit: jitter.nextUnit()),
                after: loss
            )
        case .failed(let failure):
            let loss = Loss.failed(failure)
            drop(loss)
            execute(failed(failure), after: loss)
        }
    }

    /// The machine's answer to a connection that could not be opened, under `options.failures`.
    private func failed(_ failure: TransportFailure) -> ReconnectMachine.Action {
        let unit = jitter.nextUnit()
        switch options.failures {
        case .machine:
            return storedMachine.connectionFailed(failure, unit: unit)
        case .retry:
            return storedMachine.abandon(reason: failure.message, unit: unit)
        case .fatalUntilWelcomed:
            if everWelcomed { return storedMachine.abandon(reason: failure.message, unit: unit) }
            let action = storedMachine.connectionFailed(failure, unit: unit)
            switch action {
            case .connect, .stop, .none:
                return action
            case .wait:
                _ = storedMachine.stop()
                return .stop(.transportFailed(kind: failure.kind, message: failure.message))
            }
        }
    }

    /// Forgets the current connection (closed by whoever ended it): its later events are ignored, its timers stop,
    /// and the delegate hears of it.
    private func drop(_ loss: Loss?) {
        storedGeneration &+= 1
        storedConnection = nil
        pingSentAt = nil
        cancel(&pingTimer)
        cancel(&deadPeerTimer)
        delegate?.resumeDriver(self, disconnected: loss)
    }

    private func cancel(_ timer: inout (any Disposable)?) {
        timer?.dispose()
        timer = nil
    }

    // MARK: Heartbeat

    /// A ping every `pingInterval` (its pong gives the round-trip time); one timer watches the deadline `lastRead +
    /// idleTimeout`: fired early (something was read since it was armed), it re-arms for the new deadline, so reads
    /// cost no timer work; past the deadline, the connection is abandoned with 4010 and the driver resumes.
    private func startHeartbeat(generation: UInt64) {
        guard let heartbeat = options.heartbeat else { return }
        let interval = heartbeat.pingInterval
        pingTimer = scheduler.schedule(
            after: now.addingTimeInterval(interval),
            interval: .nanoseconds(Int(interval * 1_000_000_000)),
            leeway: .milliseconds(100)
        ) { [weak self] in
            self?.withLock { self?.sendPing(generation: generation) }
        }
        armDeadPeerTimer(generation: generation, idleTimeout: heartbeat.idleTimeout)
    }

    private func sendPing(generation: UInt64) {
        guard generation == storedGeneration, let connection = storedConnection else { return }
        if pingSentAt == nil { pingSentAt = now }
        connection.ping()
    }

    private func receivedPong() {
        if options.heartbeat != nil { storedMachine.read(now: now) }
        guard let sentAt = pingSentAt else { return }
        pingSentAt = nil
        let roundTrip = now.timeIntervalSince(sentAt)
        storedRoundTrip = roundTrip
        delegate?.resumeDriver(self, pong: roundTrip)
    }

    private func armDeadPeerTimer(generation: UInt64, idleTimeout: TimeInterval) {
        let deadline = storedMachine.lastRead.addingTimeInterval(idleTimeout)
        deadPeerTimer = perform(at: deadline) { [self] in
            guard generation == storedGeneration, storedConnection != nil else { return }
            switch storedMachine.heartbeatCheck(now: now) {
            case .dead(let reason):
                abandon(code: .heartbeatTimeout, reason: reason)
            case .alive:
                armDeadPeerTimer(generation: generation, idleTimeout: idleTimeout)
            case .notConnected:
                break
            }
        }
    }
}
