import Foundation
import GoalReactive
import GoalWire
import Logging

/// Client pings and dead-peer detection. Runs on the scheduler only.
///
/// A ping goes out every `pingInterval`; its pong gives the round-trip time. Any inbound frame proves the peer
/// alive. One timer watches the deadline `lastRead + idleTimeout`: when it fires early (something was read since
/// it was armed) it re-arms for the new deadline, so reads cost no timer work; when the deadline has passed, the
/// connection is abandoned (close 4010) and the client reconnects.
extension GoalClient {
    func startHeartbeat() {
        let interval = configuration.pingInterval
        let generation = state.generation
        state.pingTimer.inner = scheduler.schedule(
            after: now.addingTimeInterval(interval),
            interval: .nanoseconds(Int(interval * 1_000_000_000)),
            leeway: .milliseconds(100)
        ) { [weak self] in
            self?.onSchedulerNow { client in client.sendPing(generation: generation) }
        }
        armDeadPeerTimer()
    }

    private func sendPing(generation: UInt64) {
        guard generation == state.generation, let connection = state.connection else { return }
        if state.pingSentAt == nil { state.pingSentAt = now }
        connection.ping()
    }

    func receivedPong() {
        guard let sentAt = state.pingSentAt else { return }
        state.pingSentAt = nil
        let roundTrip = now.timeIntervalSince(sentAt)
        state.roundTrip = roundTrip
        if case .live = statusStorage.value { statusStorage.value = .live(roundTrip: roundTrip) }
    }

    private func armDeadPeerTimer() {
        let generation = state.generation
        let deadline = state.machine.lastRead.addingTimeInterval(configuration.idleTimeout)
        state.deadPeerTimer.inner = onScheduler(at: deadline) { client in
            guard generation == client.state.generation, client.state.connection != nil else { return }
            switch client.state.machine.heartbeatCheck(now: client.now) {
            case .dead(let reason):
                client.abandonConnection(code: .heartbeatTimeout, reason: reason)
            case .alive:
                client.armDeadPeerTimer()
            case .notConnected:
                break
            }
        }
    }

    /// Runs `body` with the state lock held, on the current (scheduler) thread: for actions the scheduler
    /// itself runs.
    func onSchedulerNow(_ body: (GoalClient) -> Void) {
        withStateLock { body(self) }
    }
}
