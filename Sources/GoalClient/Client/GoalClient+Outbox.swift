import Foundation
import GoalModel
import GoalReactive
import GoalWire
import Logging

/// The outbox: queueing, sending, pacing and answering mutations. Runs on the scheduler only.
extension GoalClient {
    func enqueue(_ mutation: Mutation, ticket: MutationTicket) {
        if case .stopped(let reason) = driver.machine.reconnect.state {
            // With a state store the mutation is kept (it was recorded in `submit`): a restart of this client, or
            // the next client on the store, sends it.
            if stateStore != nil {
                state.outbox.enqueue(mutation, ticket: ticket)
                publishPending()
            }
            ticket.resolve(.failure(stoppedError(reason, wasSent: false, id: mutation.id)))
            return
        }
        state.outbox.enqueue(mutation, ticket: ticket)
        flushOutbox()
        publishPending()
    }

    /// Sends every unsent mutation in seq order, unless not authenticated or paused; first fails (outcome unknown)
    /// those first sent too long ago to be sent again (`Outbox.maximumResendAge`).
    func flushOutbox() {
        guard driver.machine.isAuthenticated, let connection = driver.connection else { return }
        let expired = state.outbox.removeExpired(now: now)
        for entry in expired {
            forgetQueued(entry.mutation.id)
            entry.ticket.resolve(.failure(MutationError(.expired, id: entry.mutation.id)))
        }
        let neverSent = Set(state.outbox.entries.filter { $0.firstSent == nil }.map(\.mutation.id.seq))
        let batch = state.outbox.takeUnsent(now: now)
        // Durably noted before the first send: the 7-day re-send limit then counts from no later than that send.
        recordFirstSent(batch.filter { neverSent.contains($0.id.seq) })
        for mutation in batch {
            connection.send(ClientMessage.mutate(ClientMessage.Mutate(mutation)).encoded())
        }
        if !batch.isEmpty || !expired.isEmpty { publishPending() }
        if let resumeAt = state.outbox.pausedUntil, state.resumeTimer.inner == nil {
            armResumeTimer(at: resumeAt)
        }
    }

    /// `rate_limited` or `overloaded` (with the refused seq): hold every send until the delay has passed, then
    /// re-send that mutation with its id.
    func pause(seq: UInt64?, milliseconds: Int) {
        if let seq { state.outbox.markUnsent(seq: seq) }
        let until = now.addingTimeInterval(TimeInterval(max(milliseconds, 0)) / 1000)
        if let current = state.outbox.pausedUntil, current >= until {
            publishPending()
            return
        }
        state.outbox.pausedUntil = until
        armResumeTimer(at: until)
        publishPending()
    }

    private func armResumeTimer(at date: Date) {
        let generation = driver.generation
        state.resumeTimer.inner = onScheduler(at: date) { client in
            guard generation == client.driver.generation else { return }
            client.state.resumeTimer.inner = nil
            client.flushOutbox()
        }
    }

    /// Answers mutation `seq` (an ack or a rejection); unknown seqs (answered before) are ignored.
    func resolve(seq: UInt64, _ outcome: (MutationID) -> Result<MutationAck, MutationError>) {
        guard let entry = state.outbox.remove(seq: seq) else {
            logger.debug("goal.client.answer.unknown", metadata: ["goal.client.seq": "\(seq)"])
            return
        }
        forgetQueued(entry.mutation.id)
        publishPending()
        entry.ticket.resolve(outcome(entry.mutation.id))
        flushOutbox()  // the in-flight window may have moved
    }

    /// The client stopped: without a state store the queued mutations fail (`.stopped`) and leave the outbox; with
    /// one they stay queued, in memory and in the store (`.kept`), and go out if the client starts again.
    func failQueuedMutations(_ reason: StopReason) {
        if stateStore != nil {
            for entry in state.outbox.entries {
                entry.ticket.resolve(.failure(stoppedError(reason, wasSent: entry.wasEverSent, id: entry.mutation.id)))
            }
            return
        }
        let entries = state.outbox.removeAll()
        guard !entries.isEmpty else { return }
        publishPending()
        for entry in entries {
            entry.ticket.resolve(.failure(stoppedError(reason, wasSent: entry.wasEverSent, id: entry.mutation.id)))
        }
    }

    func publishPending() {
        let pending = state.outbox.pending
        if pending != pendingStorage.value { pendingStorage.value = pending }
    }
}
