import GoalClient
import GoalModel
import GoalTransport
import GoalWire
import NIOCore
import Synchronization

/// One subscriber connection (`stream: all`): lean (reads only revision, digest and the author's id from each
/// changeset) or sampled (decodes everything into a `ReplicaState`).
///
/// Threading: events arrive on the connection's event loop; the state lives in a `Mutex` so the runner can read
/// counters from its own task. Lifetime: held by the runner for the whole run; reconnects by itself (resuming from
/// its revision) while the run is going and it was not closed on purpose.
final class LoadSubscriber: Sendable {
    let index: Int
    let sampled: Bool
    let context: LoadContext
    let state = Mutex(SubscriberState())

    init(index: Int, sampled: Bool, context: LoadContext) {
        self.index = index
        self.sampled = sampled
        self.context = context
        if sampled { state.withLock { $0.replica = ReplicaState() } }
    }

    /// Opens a connection and sends hello, resuming from the current revision if there is one.
    func connect() {
        let (generation, hello) = state.withLock { s -> (Int, [UInt8]) in
            s.generation += 1
            s.phase = .connecting
            s.caughtUpAt = nil
            s.helloSentAt = MonotonicClock.nanoseconds()
            let since = s.revision
            let message = ClientMessage.hello(
                ClientMessage.Hello(
                    token: context.token,
                    clientInstance: s.instance,
                    since: since > 0 ? since : nil,
                    epoch: since > 0 ? (s.replica?.epoch ?? s.epoch) : nil,
                    digest: since > 0 ? s.currentDigest : nil,
                    stream: .all
                )
            )
            return (s.generation, message.encoded())
        }
        let connection = context.open(slot: index) { [self] event in
            self.handle(event, generation: generation)
        }
        connection.send(hello)
        state.withLock { $0.connection = connection }
    }

    /// Closes the connection on purpose (churn, catchup, end of run); no reconnect follows.
    func disconnect() {
        let connection = state.withLock { s -> WebSocketConnection? in
            s.generation += 1
            s.phase = .idle
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
                catchUpSeconds: s.caughtUpAt.map { MonotonicClock.seconds(from: s.helloSentAt, to: $0) }
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
            if restart { reconnectSoon(after: generation, counted: true) }
        case .closed(let code, let reason):
            let current = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                if code.map({ $0 >= 4400 }) == true { s.note("closed with terminal code \(code!): \(reason)") }
                s.phase = .down
                return true
            }
            if current { reconnectSoon(after: generation, counted: true) }
        case .failed(let failure):
            let current = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.failedAttempts += 1
                s.phase = .down
                return true
            }
            _ = failure
            if current { reconnectSoon(after: generation, counted: false) }
        }
    }

    /// Reconnects after a short pause unless the run is over or the connection was replaced meanwhile.
    private func reconnectSoon(after generation: Int, counted: Bool) {
        guard context.isRunning else { return }
        let connection = state.withLock { s -> WebSocketConnection? in
            guard s.generation == generation else { return nil }
            if counted { s.reconnects += 1 }
            s.generation += 1
            let old = s.connection
            s.connection = nil
            return old
        }
        guard let connection else { return }
        connection.close(code: 1000)
        let delay = TimeAmount.milliseconds(100 + Int64(index % 200))
        connection.eventLoop.scheduleTask(in: delay) { [self] in
            guard self.context.isRunning else { return }
            self.connect()
        }
    }
}
