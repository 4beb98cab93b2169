import Foundation
import GoalModel
import GoalReactive
import GoalWire
import Logging

/// Reading server messages. Runs on the scheduler only.
extension GoalClient {
    /// Decodes and handles one inbound message. - Returns: `.abandon` when the message does not decode or the
    /// stream cannot go on (the driver closes the connection and resumes).
    func receive(_ bytes: [UInt8]) -> ResumeDriver.Verdict {
        let message: ServerMessage
        let payload: ChangesetFrame.Payload?
        do {
            (message, payload) = try ServerMessage.decodeWithPayload(bytes)
        } catch {
            return .abandon(.protocolViolation, reason: "undecodable server message: \(error)")
        }
        if receivePresence(message) { return .proceed }
        let epochBefore = state.replica.epoch
        // Take session and replica out of `state` (leaving empty values) so each is uniquely referenced while it
        // changes: no copy-on-write of the replica's dictionaries, and no overlapping access to `state`.
        var session = state.session
        var replica = state.replica
        state.session = SyncSession()
        state.replica = ReplicaState()
        let outcome = driver.updateMachine { machine in
            session.receive(message, payload: payload, machine: &machine, replica: &replica)
        }
        state.session = session
        state.replica = replica
        switch outcome {
        case .none:
            break
        case .welcomed(let welcome, let live):
            roleStorage.value = welcome.role
            if serverStorage.value.node != welcome.node
                || serverStorage.value.protocolVersion != welcome.protocolVersion
            {
                serverStorage.value.node = welcome.node
                serverStorage.value.protocolVersion = welcome.protocolVersion
            }
            // Publish the first epoch at once; a replica emptied by an epoch change stays visible until the
            // snapshot that follows replaces it.
            if epochBefore == nil, state.replica.epoch != nil {
                replicaStorage.value = state.replica
            }
            statusStorage.value = live ? .live(roundTrip: driver.roundTrip) : .syncing
            // The replica is confirmed in sync now: a live welcome saves at once (its time is the sync time).
            state.replicaUnsaved = true
            if live { saveReplicaIfNeeded() }
            flushOutbox()
            historyWelcomed(welcome)
        case .applied(let changeset):
            state.unpublished.append(changeset)
            state.replicaUnsaved = true
            let inBacklog = driver.machine.isInBacklog
            if !inBacklog || state.unpublished.count >= configuration.backlogBatch {
                publishApplied()
            }
            if !inBacklog { scheduleReplicaSave() }
        case .replaced(let revision):
            state.unpublished = []
            replicaStorage.value = state.replica
            updatesInput.send(value: .snapshot(revision: revision))
            state.replicaUnsaved = true
            saveReplicaIfNeeded()
            statusStorage.value = .live(roundTrip: driver.roundTrip)
        case .caughtUp:
            publishApplied()
            state.replicaUnsaved = true
            saveReplicaIfNeeded()
            statusStorage.value = .live(roundTrip: driver.roundTrip)
        case .resync(let reason):
            return .abandon(.resync, reason: reason)
        case .ack(let seq, let revision, let noop):
            resolve(seq: seq) { .success(MutationAck(id: $0, revision: revision, noop: noop)) }
        case .rejected(let seq, let rejection):
            resolve(seq: seq) { .failure(MutationError(.rejected(rejection), id: $0)) }
        case .paced(let seq, let milliseconds):
            pause(seq: seq, milliseconds: milliseconds)
        case .serverError(let code, let text):
            logger.info("goal.client.server_error", metadata: ["goal.client.code": "\(code.rawValue)"])
            state.serverError = (code, text)
        case .history(let answer):
            historyAnswered(answer)
        }
        return .proceed
    }

    /// Publishes the replica, then one update per changeset applied since the last publication. A backlog is
    /// published in batches of `configuration.backlogBatch` (and at `caught_up`), so observers that re-sort whole
    /// lists do not do it once per changeset while catching up.
    func publishApplied() {
        guard !state.unpublished.isEmpty else { return }
        let batch = state.unpublished
        state.unpublished = []
        replicaStorage.value = state.replica
        for changeset in batch { updatesInput.send(value: .changeset(changeset)) }
    }
}
