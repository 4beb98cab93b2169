import Foundation
import GoalClient
import GoalLocking
import GoalModel
import GoalTransport
import GoalWire
import NIOCore

/// One subscriber connection (`stream: all`): lean (reads only revision, digest and the author's id from each
/// changeset) or sampled (decodes everything into a `ReplicaState`).
///
/// Threading: events arrive on the connection's event loop; the state lives in a `LockedValue` so the runner can read
/// counters from its own task. Lifetime: held by the runner for the whole run; reconnects by itself (resuming from
/// its revision) while the run is going and it was not closed on purpose.
final class LoadSubscriber: Sendable {
    let index: Int
    let sampled: Bool
    let context: LoadContext
    let state = LockedValue(SubscriberState())

    /// - Parameters:
    ///   - index: The subscriber's number; it starts on node `index % context.serverCount` and, when that node is
    ///     lost, resumes on the next one (round robin, the shared `ResumeSession` rules).
    ///   - sampled: Decode everything into a replica.
    ///   - context: The run's shared context.
    init(index: Int, sampled: Bool, context: LoadContext) {
        self.index = index
        self.sampled = sampled
        self.context = context
        let servers = context.serverCount
        state.withLock { s in
            s.machine = ResumeSession(policy: SubscriberState.backoff, serverCount: servers, server: index % servers)
            if sampled { s.replica = ReplicaState() }
        }
    }

    /// Starts the subscriber (again, after `disconnect`): opens a connection whose hello resumes from the current
    /// revision if there is one.
    func connect() {
        let action = state.withLock { $0.machine.start() }
        execute(action)
    }

    /// Carries out one action of the shared resume machine.
    private func execute(_ action: ReconnectMachine.Action, on eventLoop: (any EventLoop)? = nil) {
        switch action {
        case .connect:
            open()
        case .wait(_, let delay):
            guard context.isRunning, let eventLoop else { return }
            let generation = state.withLock { $0.generation }
            eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1_000_000_000))) { [self] in
                guard self.context.isRunning else { return }
                let action = self.state.withLock { s -> ReconnectMachine.Action in
                    guard s.generation == generation else { return .none }
                    return s.machine.retryTimerFired()
                }
                self.execute(action)
            }
        case .stop, .none:
            break
        }
    }

    /// Opens one connection and sends hello at once (the transport queues it until the upgrade completes).
    private func open() {
        let (generation, hello, server) = state.withLock { s -> (Int, [UInt8], Int) in
            s.generation += 1
            s.phase = .connecting
            s.caughtUpAt = nil
            s.inSnapshot = false
            s.assembler = nil
            s.helloSentAt = MonotonicClock.nanoseconds()
            let hello = s.machine.connectionOpened(
                now: Date(),
                token: context.token,
                instance: s.instance,
                protocolVersion: context.protocolVersion
            )
            return (s.generation, ClientMessage.hello(hello).encoded(), s.machine.server)
        }
        let connection = context.open(slot: index, server: server) { [self] event in
            self.handle(event, generation: generation)
        }
        connection.send(hello)
        // Unless the connection already failed (its events may come before `open` returns).
        state.withLock { s in if s.generation == generation { s.connection = connection } }
    }

    /// Closes the connection on purpose (churn, catchup, end of run); no reconnect follows.
    func disconnect() {
        let connection = state.withLock { s -> WebSocketConnection? in
            s.generation += 1
            s.phase = .idle
            _ = s.machine.stop()
            defer { s.connection = nil }
            return s.connection
        }
        connection?.close(code: 1000)
    }

    /// A copy of the counters.
    func snapshot() -> SubscriberSnapshot {
        state.withLock { s in
            SubscriberSnapshot(
                phase: s.phase,
                revision: s.revision,
                digest: s.currentDigest,
                deliveries: s.deliveries,
                bytes: s.bytes,
                reconnects: s.reconnects,
                failedAttempts: s.failedAttempts,
                sheddings: s.sheddings,
                everConnected: s.everConnected,
                problems: s.problems,
                problemCount: s.problemCount,
                replica: s.replica,
                catchUpSeconds: s.caughtUpAt.map { MonotonicClock.seconds(from: s.helloSentAt, to: $0) },
                snapshots: s.snapshots,
                server: s.machine.server
            )
        }
    }

    private func handle(_ event: TransportEvent, generation: Int) {
        switch event {
        case .connected, .pong:
            return
        case .message(let bytes):
            let now = MonotonicClock.nanoseconds()
            let restart = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.bytes += bytes.count
                return sampled ? receiveDecoded(bytes, now: now, &s) : receiveLean(bytes, now: now, &s)
            }
            if restart { lost(generation: generation, counted: true, code: CloseCode.resync.rawValue) }
        case .closed(let code, let reason):
            let current = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                if let code, CloseCode(rawValue: code).isTerminal {
                    s.note("closed with terminal code \(code): \(reason)")
                }
                return true
            }
            if current { lost(generation: generation, counted: true, code: code) }
        case .failed(let failure):
            let current = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.failedAttempts += 1
                return true
            }
            if current { lost(generation: generation, counted: false, failure: failure) }
        }
    }

    /// The connection ended or broke: the shared machine decides whether and when to resume (after a short pause,
    /// unless the run is over, the code was terminal or the connection was replaced meanwhile).
    private func lost(generation: Int, counted: Bool, code: UInt16? = nil, failure: TransportFailure? = nil) {
        let unit = Double(index % 200) / 200
        let outcome = state.withLock { s -> (WebSocketConnection?, ReconnectMachine.Action)? in
            guard s.generation == generation else { return nil }
            if counted { s.reconnects += 1 }
            s.generation += 1
            s.phase = .down
            let old = s.connection
            s.connection = nil
            let action =
                if let failure {
                    // Every failure is retried while the run goes on, TLS ones too (a handshake cut under load).
                    s.machine.abandon(reason: failure.message, unit: unit)
                } else {
                    s.machine.connectionClosed(code: code.map(CloseCode.init(rawValue:)), message: "", unit: unit)
                }
            return (old, action)
        }
        guard let (connection, action) = outcome else { return }
        connection?.close(code: 1000)
        guard context.isRunning else { return }
        execute(action, on: connection?.eventLoop ?? context.group.any())
    }
}
