import Foundation
import GoalClient
import GoalModel
import GoalWire

/// One subscriber connection (`stream: all`): lean (reads only revision, digest and the author's id from each
/// changeset) or sampled (decodes everything into a `ReplicaState`).
///
/// Connecting, resuming and failover are the shared `ResumeDriver`'s (inline: its events run on the connection's
/// event loop, no hop; `BackoffPolicy.loadGenerator`; no heartbeat); this type reads the messages it hands over.
///
/// Threading: `state` is touched only with the driver's lock held (in its delegate methods, or `driver.withLock`), so
/// the runner can read counters from its own task: hence `@unchecked Sendable`. Lifetime: held by the runner for the
/// whole run; reconnects by itself (resuming from its revision) while the run is going and it was not closed on
/// purpose.
final class LoadSubscriber: ResumeDriverDelegate, @unchecked Sendable {
    let index: Int
    let sampled: Bool
    let context: LoadContext
    let driver: ResumeDriver
    /// Guarded by the driver's lock.
    private var state = SubscriberState()

    /// - Parameters:
    ///   - index: The subscriber's number.
    ///   - server: The node it starts on (`LoadConfiguration.server(forSubscriber:)`); when that node is lost, it
    ///     resumes on the next one (round robin, the shared `ResumeSession` rules).
    ///   - sampled: Decode everything into a replica.
    ///   - context: The run's shared context.
    ///   - league: The league its hellos name; nil: none (the default league).
    init(index: Int, sampled: Bool, context: LoadContext, server: Int = 0, league: LeagueSlug? = nil) {
        self.index = index
        self.sampled = sampled
        self.context = context
        let servers = max(context.serverCount, 1)
        driver = ResumeDriver(
            machine: ResumeSession(policy: .loadGenerator, serverCount: servers, server: server % servers),
            options: ResumeDriver.Options(
                token: context.token,
                instance: ClientInstanceID.random(),
                protocolVersion: context.protocolVersion,
                heartbeat: nil,
                // Every failure is retried while the run goes on, TLS ones too (a handshake cut under load).
                failures: .retry,
                helloTiming: .onOpen,
                league: league
            ),
            transport: SlotTransport(context: context, slot: index),
            execution: .inline(timers: context.timers),
            // A fixed pause spread over 0.1–0.3 s by index (`BackoffPolicy.loadGenerator`).
            jitter: ConstantJitter(Double(index % 200) / 200)
        )
        if sampled { state.replica = ReplicaState() }
        driver.attach(self)
    }

    /// Starts the subscriber (again, after `disconnect`): opens a connection whose hello resumes from the current
    /// revision if there is one.
    func connect() {
        driver.start()
    }

    /// Closes the connection on purpose (churn, catchup, end of run); no reconnect follows.
    func disconnect() {
        driver.withLock {
            state.phase = .idle
            driver.stop()
        }
    }

    /// A copy of the counters.
    func snapshot() -> SubscriberSnapshot {
        driver.withLock {
            let machine = driver.machine
            return SubscriberSnapshot(
                phase: state.phase,
                revision: machine.position.since ?? 0,
                digest: machine.position.digest ?? .genesis,
                deliveries: state.deliveries,
                bytes: state.bytes,
                reconnects: state.reconnects,
                failedAttempts: state.failedAttempts,
                sheddings: state.sheddings,
                everConnected: state.everConnected,
                problems: state.problems,
                problemCount: state.problemCount,
                replica: state.replica,
                catchUpSeconds: state.caughtUpAt.map { MonotonicClock.seconds(from: state.helloSentAt, to: $0) },
                snapshots: state.snapshots,
                server: machine.server
            )
        }
    }

    /// Reads one message of the current connection (a lean or a sampled one, by `sampled`); the hot path: one
    /// re-entry of the driver's lock, which the driver already holds when it hands the message over.
    /// - Returns: true when the stream broke (gap, undecodable message) and the subscriber must resume.
    func receive(_ bytes: [UInt8], now: UInt64) -> Bool {
        driver.updateMachine { machine in
            state.bytes += bytes.count
            return sampled
                ? receiveDecoded(bytes, now: now, &state, &machine) : receiveLean(bytes, now: now, &state, &machine)
        }
    }

    // MARK: ResumeDriverDelegate (with the driver's lock held)

    func resumeDriver(_ driver: ResumeDriver, connecting attempt: Int, server: Int, after loss: ResumeDriver.Loss?) {
        state.phase = .connecting
        state.caughtUpAt = nil
        state.inSnapshot = false
        state.assembler = nil
        state.helloSentAt = MonotonicClock.nanoseconds()
    }

    func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict {
        // Closed with 1000 as before; the driver resumes from the position after the machine's backoff.
        receive(bytes, now: MonotonicClock.nanoseconds()) ? .abandon(.normal, reason: "the stream broke") : .proceed
    }

    func resumeDriver(_ driver: ResumeDriver, explainClose code: UInt16?, reason: String) -> (CloseCode?, String) {
        if let code, CloseCode(rawValue: code).isTerminal {
            state.note("closed with terminal code \(code): \(reason)")
        }
        return (code.map(CloseCode.init(rawValue:)), "")
    }

    func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?) {
        switch loss {
        case .closed, .abandoned:
            state.reconnects += 1
            state.phase = .down
        case .failed:
            state.failedAttempts += 1
            state.phase = .down
        case nil:
            break
        }
    }

    func resumeDriver(_ driver: ResumeDriver, waiting attempt: Int, delay: TimeInterval, after loss: ResumeDriver.Loss?)
    {}

    func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason) {}

    func resumeDriverMayResume(_ driver: ResumeDriver) -> Bool { context.isRunning }
}
