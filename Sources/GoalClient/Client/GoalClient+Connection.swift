public import Foundation
import GoalModel
import GoalReactive
public import GoalWire
import Logging

/// What the client does when its `ResumeDriver` connects, reads, loses or stops a connection. Runs on the scheduler
/// only, with the driver's lock held.
extension GoalClient: ResumeDriverDelegate {
    public func resumeDriver(
        _ driver: ResumeDriver,
        connecting attempt: Int,
        server: Int,
        after loss: ResumeDriver.Loss?
    ) {
        state.session = SyncSession()
        state.serverError = nil
        statusStorage.value = .connecting(attempt: attempt)
        if serverStorage.value.index != server || serverStorage.value.node != nil {
            serverStorage.value = ServerLocation(index: server, name: configuration.serverName(at: server))
        }
        if attempt > 0 {
            logger.info(
                "goal.client.connect",
                metadata: ["goal.client.attempt": "\(attempt)", "goal.client.server": "\(serverStorage.value.name)"]
            )
        }
    }

    public func resumeDriver(_ driver: ResumeDriver, received bytes: [UInt8]) -> ResumeDriver.Verdict {
        receive(bytes)
    }

    public func resumeDriver(_ driver: ResumeDriver, pong roundTrip: TimeInterval) {
        if case .live = statusStorage.value { statusStorage.value = .live(roundTrip: roundTrip) }
    }

    /// The server's `error` before a close names its code (when the close has none) and its message.
    public func resumeDriver(
        _ driver: ResumeDriver,
        explainClose code: UInt16?,
        reason: String
    ) -> (CloseCode?, String) {
        (
            code.map(CloseCode.init(rawValue:)) ?? state.serverError?.code.closeCode,
            state.serverError?.message ?? reason
        )
    }

    /// Forgets the connection: sent mutations are marked for re-sending on the next one, presence empties, the
    /// replica is published and saved.
    public func resumeDriver(_ driver: ResumeDriver, disconnected loss: ResumeDriver.Loss?) {
        switch loss {
        case .failed(let failure):
            logger.info("goal.client.connect.failed", metadata: ["goal.client.failure": "\(failure)"])
        case .abandoned(let code, let reason):
            logger.info(
                "goal.client.abandon",
                metadata: ["goal.client.code": "\(code)", "goal.client.reason": "\(reason)"]
            )
        case .closed, nil:
            break
        }
        publishApplied()
        saveReplicaIfNeeded()
        state.session = SyncSession()
        presenceDisconnected()
        state.resumeTimer.inner = nil
        state.outbox.markAllUnsent()
        state.history.connectionLost()
        publishPending()
    }

    public func resumeDriver(
        _ driver: ResumeDriver,
        waiting attempt: Int,
        delay: TimeInterval,
        after loss: ResumeDriver.Loss?
    ) {
        logger.info(
            "goal.client.reconnect.wait",
            metadata: ["goal.client.attempt": "\(attempt)", "goal.client.delay": "\(delay)"]
        )
        statusStorage.value = .reconnecting(attempt: attempt, delay: delay)
    }

    /// Publishes the stop and fails the queued mutations and history requests.
    public func resumeDriver(_ driver: ResumeDriver, stopped reason: StopReason) {
        logger.info("goal.client.stopped", metadata: ["goal.client.reason": "\(reason)"])
        statusStorage.value = .stopped(reason)
        failQueuedMutations(reason)
        failHistoryRequests(reason)
    }
}
