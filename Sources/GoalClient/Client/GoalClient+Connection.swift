import Foundation
import GoalModel
import GoalReactive
import GoalWire
import Logging

/// Opening and losing connections, and executing the reconnect machine's actions. Runs on the scheduler only.
extension GoalClient {
    /// Carries out one action of the reconnect machine.
    func execute(_ action: ReconnectMachine.Action) {
        switch action {
        case .connect(let attempt):
            openConnection(attempt: attempt)
        case .wait(let attempt, let delay):
            logger.info(
                "goal.client.reconnect.wait",
                metadata: ["goal.client.attempt": "\(attempt)", "goal.client.delay": "\(delay)"]
            )
            statusStorage.value = .reconnecting(attempt: attempt, delay: delay)
            state.retryTimer.inner = onScheduler(at: now.addingTimeInterval(delay)) { client in
                client.execute(client.state.machine.retryTimerFired())
            }
        case .stop(let reason):
            logger.info("goal.client.stopped", metadata: ["goal.client.reason": "\(reason)"])
            state.connection?.close(code: CloseCode.normal.rawValue)
            tearDownConnection()
            state.retryTimer.inner = nil
            statusStorage.value = .stopped(reason)
            failQueuedMutations(reason)
            failHistoryRequests(reason)
        case .none:
            break
        }
    }

    private func openConnection(attempt: Int) {
        state.generation += 1
        let generation = state.generation
        state.session = SyncSession()
        state.serverError = nil
        statusStorage.value = .connecting(attempt: attempt)
        let server = state.machine.server
        if serverStorage.value.index != server || serverStorage.value.node != nil {
            serverStorage.value = ServerLocation(index: server, name: configuration.serverName(at: server))
        }
        if attempt > 0 {
            logger.info(
                "goal.client.connect",
                metadata: ["goal.client.attempt": "\(attempt)", "goal.client.server": "\(serverStorage.value.name)"]
            )
        }
        state.connection = transport.connect(server: server) { [weak self] event in
            self?.onScheduler { client in client.handle(event, generation: generation) }
        }
    }

    /// One transport event of connection `generation`.
    func handle(_ event: TransportEvent, generation: UInt64) {
        guard generation == state.generation, state.connection != nil else { return }
        switch event {
        case .connected:
            sendHello()
            startHeartbeat()
        case .message(let bytes):
            state.machine.read(now: now)
            receive(bytes)
        case .pong:
            state.machine.read(now: now)
            receivedPong()
        case .closed(let code, let reason):
            let closeCode = code.map(CloseCode.init(rawValue:)) ?? state.serverError?.code.closeCode
            let message = state.serverError?.message ?? reason
            tearDownConnection()
            execute(state.machine.connectionClosed(code: closeCode, message: message, unit: jitter.nextUnit()))
        case .failed(let failure):
            logger.info("goal.client.connect.failed", metadata: ["goal.client.failure": "\(failure)"])
            tearDownConnection()
            execute(state.machine.connectionFailed(failure, unit: jitter.nextUnit()))
        }
    }

    private func sendHello() {
        var hello = state.machine.connectionOpened(
            now: now,
            token: configuration.token,
            instance: clientInstance,
            stream: configuration.stream
        )
        hello.presence = configuration.presence
        state.connection?.send(ClientMessage.hello(hello).encoded())
    }

    /// Gives up on the current connection (gap, bad stream, dead peer): closes it with `code` and reconnects
    /// with backoff without waiting for the transport's `.closed`.
    func abandonConnection(code: CloseCode, reason: String) {
        logger.info(
            "goal.client.abandon",
            metadata: ["goal.client.code": "\(code)", "goal.client.reason": "\(reason)"]
        )
        state.connection?.close(code: code.rawValue)
        tearDownConnection()
        execute(state.machine.abandon(reason: reason, unit: jitter.nextUnit()))
    }

    /// Forgets the current connection: later events of it are ignored, timers stop, sent mutations are marked
    /// for re-sending on the next connection.
    func tearDownConnection() {
        publishApplied()
        saveReplicaIfNeeded()
        state.generation += 1
        state.connection = nil
        state.session = SyncSession()
        presenceDisconnected()
        state.pingSentAt = nil
        state.pingTimer.inner = nil
        state.deadPeerTimer.inner = nil
        state.resumeTimer.inner = nil
        state.outbox.markAllUnsent()
        state.history.connectionLost()
        publishPending()
    }
}
