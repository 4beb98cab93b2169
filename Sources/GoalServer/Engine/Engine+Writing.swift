import CoreMetrics
import Dispatch
import GoalLocking
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// Group commit: the open batch closes when no write is in flight, the writer persists it, and only then are its
/// commits and answers published. A store that is unavailable keeps the batch in flight and retries it.
/// Everything here runs on the engine queue; the writer's outcome comes back to it by `queue.async`.
extension Engine {
    /// Closes the open batch and starts writing it, unless a write or a catch-up is in flight (then it keeps
    /// filling).
    func writeIfIdle() {
        guard inFlight == nil, !catchingUp, !failed, !openBatch.isEmpty else { return }
        let batch = decider.close(&openBatch)
        guard !batch.storage.isEmpty else {
            // Only replies (duplicates of durable results, unauthorized): nothing to persist, nothing in flight.
            publish(batch)
            startCatchUpIfWanted()
            return
        }
        inFlight = batch
        startWrite()
    }

    /// Hands the batch in flight to the writer, on the store as this node last saw it.
    /// The writer decides the batch again itself when a shared store refuses it (`BatchRebase`); the outcome, and
    /// what the writer absorbed, come back here by `queue.async`.
    func startWrite() {
        guard let batch = inFlight else { return }
        let pending = BatchRebase(batch, decidedOn: durableView, policy: decider.clientRecordPolicy)
        writer.write(pending, onto: storeHead) { result, written in
            self.queue.async { self.writeFinished(result, written: written) }
        }
    }

    /// Answers a mutation that was not decided, without waiting for the batch in flight: the answer follows the
    /// durable head, which is what its session has or will have first.
    func answerAtOnce(_ request: MutationRequest, _ message: ServerMessage) {
        metrics.overloaded.increment()
        let durable = durableView
        publish(
            ClosedBatch(
                storage: StorageBatch(),
                stateAfter: durable.state,
                digestAfter: durable.digest,
                replies: [
                    DecidedReply(
                        address: request.replyTo,
                        message: message,
                        after: durable.state.revision,
                        direct: request.direct
                    )
                ],
                openedAt: .now
            )
        )
    }

    /// Takes the writer's outcome: first what other nodes wrote that the writer absorbed (published before the
    /// batch, which it decided again), then the batch itself.
    func writeFinished(_ result: Result<StoreHead, StorageError>, written: BatchRebase) {
        logger.trace("batch written", metadata: ["goal.result": "\(result)"])
        guard inFlight != nil else { return }
        if !written.absorbed.isEmpty { take(written) }
        guard let batch = inFlight else { return }
        if case .failure(let error) = result, error.isTransient, !stopping {
            retry(after: error)
            return
        }
        inFlight = nil
        if storeDown, case .success = result {
            storeDown = false
            storeAvailable.store(true, ordering: .relaxed)
            metrics.storeAvailable.set(1)
            retryDelay = Self.firstRetryDelay
            logger.notice("the store is available again; batches are written and mutations decided")
        }
        switch result {
        case .success(let head):
            storeHead = head
            metrics.batchCommits.record(batch.storage.commits.count)
            metrics.commitLatency.recordNanoseconds(Int64((ContinuousClock.now - batch.openedAt).nanoseconds))
            publish(batch)
            // The write read everything committed before it (decided again on it when refused); the batches other
            // nodes notified meanwhile follow it. A catch-up is still wanted for a newer notification that did
            // not carry its batch, or by those waiting for one, who go first.
            takeNotifiedBatches()
            if newestNotified > storeHead.version { catchUpWanted = true }
            if catchUpWanted, openBatch.isEmpty || !parked.isEmpty || !headWaiters.isEmpty {
                startCatchUpIfWanted()
            } else {
                writeIfIdle()
            }
        case .failure(let error):
            failed = true
            logger.critical("batch write failed; stopping", metadata: ["goal.error": "\(error)"])
            onFatalError(error)
        }
        resumeDrainedIfDone()
    }

    /// Keeps the batch in flight and writes it again after a growing delay; meanwhile new mutations are answered
    /// `overloaded`. An attempt that committed before its connection was lost is recognised on the next one (the
    /// store holds the batch already: `BatchWriter`, or on a shared store the batch is decided again on itself).
    private func retry(after error: StorageError) {
        if !storeDown {
            storeDown = true
            storeAvailable.store(false, ordering: .relaxed)
            metrics.storeAvailable.set(0)
            metrics.storeOutages.increment()
            logger.warning(
                "the store is unavailable; retrying the batch in flight and answering new mutations overloaded",
                metadata: ["goal.error": "\(error)"]
            )
        }
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.lastRetryDelay)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds))) { self.startWrite() }
    }

    /// Makes a durable batch visible: the durable view, the hub (commits and answers), head waiters.
    func publish(_ batch: ClosedBatch) {
        durable.withLockedValue { $0 = DurableView(state: batch.stateAfter, digest: batch.digestAfter) }
        hub.publish(batch)
        held.subtract(batch.replies.count, ordering: .relaxed)  // one answer per mutation decided
        resumeHeadWaiters()
    }

    func resumeDrainedIfDone() {
        guard stopping, failed || (inFlight == nil && !catchingUp && openBatch.isEmpty) else { return }
        drained.open()
    }
}
