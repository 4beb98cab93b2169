import CoreMetrics
import Dispatch
import GoalModel
import GoalStore
import GoalWire
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// Following the other nodes of a shared store (docs/SCALING.md): one order of revisions, their commits fanned out
/// here, and this node's lag never the client's problem. Everything but `requestCatchUp` and `whenDurable` runs on
/// the engine queue; on a store only this process writes, nothing here ever has work to do.
///
/// - A batch written on a store that moved is decided again on what the others wrote (by the writer, when the store
///   refused it: `BatchRebase`); once the outcome is back on the engine queue, the others' commits are published
///   first, with their stored frames, and the mutations decided after the batch are decided again on it (`take`).
/// - A notification that carries its batch (`HeadNotice`) is taken as it is when this node stands at the head it was
///   written on and nothing of its own is in flight. Any other notification, the periodic head check, a resuming
///   client or a mutation whose `base` this node has not seen asks for a catch-up: a read of what the others wrote,
///   once no write is in flight.
/// - A mutation whose `base` is ahead of this node waits (with every mutation after it, to keep their order) for
///   that catch-up, then is decided: `base_ahead` only when the store has not seen that revision either.
extension Engine {
    /// Asks the engine to read what other nodes wrote. Any thread; cheap when there is nothing new.
    func requestCatchUp() {
        queue.async {
            self.catchUpWanted = true
            self.startCatchUpIfWanted()
        }
    }

    /// Follows a commit notification: nothing for this node's own commit or one it read; the batch itself when the
    /// notification carried it and this node stands at the head it was written on (no read); otherwise a read of
    /// what other nodes wrote. Nil (the watching connection was (re)connected) always reads. Any thread.
    func follow(_ notice: HeadNotice?) {
        queue.async {
            guard let notice else {
                self.catchUpWanted = true
                return self.startCatchUpIfWanted()
            }
            self.newestNotified = max(self.newestNotified, notice.version)
            if notice.version <= self.storeHead.version { return }  // this node's own commit, or one it read
            if let written = notice.written { self.keep(written) }
            // A notification often overtakes the completion of this node's own write: decided when it lands (the
            // write then takes the batches kept meanwhile, or is refused and handed them by the store).
            if self.inFlight != nil || self.catchingUp || self.failed || self.stopping { return }
            self.takeNotifiedBatches()  // publishing them resumes the head waiters they satisfy
            self.writeIfIdle()
            if self.newestNotified > self.storeHead.version {
                self.catchUpWanted = true
                self.startCatchUpIfWanted()
            }
        }
    }

    /// The most notified batches kept while this node writes or reads; past it, the oldest go (a read fills in).
    static let notifiedBatchLimit = 64

    private func keep(_ written: HeadNotice.Written) {
        if notifiedBatches.count == Self.notifiedBatchLimit { notifiedBatches.removeFirst() }
        notifiedBatches.append(written)
    }

    /// Takes, in order, the kept batches that follow this node's head (each publishes the other node's commits and
    /// decides the open batch again on top of them, as a read would), and forgets those the head has passed. Call
    /// with no write in flight.
    func takeNotifiedBatches() {
        while let next = notifiedBatches.firstIndex(where: { $0.base == storeHead }) {
            let written = notifiedBatches.remove(at: next)
            do throws(StorageError) {
                try absorb(written.changes)
            } catch {
                return fail(error)
            }
            metrics.notifiedBatches.increment()
        }
        notifiedBatches.removeAll { $0.changes.head.version <= storeHead.version }
    }

    /// Calls `resume` (on the engine queue) once this node's durable head is at least `revision`, or once a
    /// catch-up found the store behind it or failed, or when the engine stops. Any thread.
    func whenDurable(atLeast revision: Revision, _ resume: @escaping @Sendable () -> Void) {
        queue.async {
            if self.durableView.revision >= revision || self.stopping || self.failed { return resume() }
            self.headWaiters.append((revision, resume))
            self.catchUpWanted = true
            self.startCatchUpIfWanted()
        }
    }

    /// Holds a mutation back when this node may be behind the client that sent it; true when it was held.
    func park(_ timed: TimedRequest) -> Bool {
        guard writer.isShared, !parked.isEmpty || timed.request.mutation.base > decider.state.revision else {
            return false
        }
        parked.append(timed)
        catchUpWanted = true
        startCatchUpIfWanted()
        return true
    }

    func startCatchUpIfWanted() {
        guard writer.isShared, catchUpWanted, inFlight == nil, !catchingUp, !failed, !stopping else { return }
        catchUpWanted = false
        catchingUp = true
        metrics.catchUpReads.increment()
        writer.readChanges(after: storeHead) { result in
            self.queue.async {
                self.catchingUp = false
                self.caughtUp(with: result)
            }
        }
    }

    /// Takes what a read of the other nodes' writes brought and the kept notified batches that follow it, then
    /// decides what waited for the read.
    private func caughtUp(with result: Result<ForeignChanges, StorageError>) {
        logger.debug(
            "read what other nodes wrote",
            metadata: ["goal.from": "\(storeHead)", "goal.result": "\(result.map(\.head))"]
        )
        switch result {
        case .success(let changes):
            if changes.head != storeHead {
                do throws(StorageError) {
                    try absorb(changes)
                } catch {
                    fail(error)
                }
            }
            if !failed { takeNotifiedBatches() }
        case .failure(let error) where error.isTransient:
            logger.debug("could not read what other nodes wrote", metadata: ["goal.error": "\(error)"])
        case .failure(let error):
            fail(error)  // pruned past this node's head, or unreadable: a restart recovers from the store
        }
        let waiting = parked
        parked = []
        for timed in waiting where !failed { decide(timed, into: &openBatch) }
        resumeHeadWaiters(all: true)
        writeIfIdle()
        startCatchUpIfWanted()
        resumeDrainedIfDone()
    }

    /// Takes what the writer absorbed while the store refused the batch in flight (`BatchRebase`): publishes the
    /// other nodes' commits in order, makes the batch decided again on them the one in flight, and decides the open
    /// batch again on top of it.
    func take(_ written: BatchRebase) {
        var refreshed = Set<ClientInstanceID>()
        for (changes, published) in written.absorbed {
            metrics.rebasedBatches.increment()
            metrics.foreignCommits.increment(by: Int64(changes.commits.count))
            storeHead = changes.head
            publish(published)
            refreshed.formUnion(changes.clientRecords.map(\.instance))
        }
        inFlight = written.batch
        decider = BatchDecider(
            state: written.batch.stateAfter,
            headDigest: written.batch.digestAfter,
            clientRecordPolicy: decider.clientRecordPolicy
        )
        decideOpenBatchAgain(exceptRefreshed: refreshed)
    }

    /// Applies what other nodes wrote to the durable state, publishes their commits, and decides the open batch again
    /// on top of it (keeping its mutations' order and times). Call with no write in flight (the writer absorbs what
    /// comes while one is: `take`).
    private func absorb(_ changes: ForeignChanges) throws(StorageError) {
        let (absorbed, published) = try BatchDecider.absorbing(
            changes,
            onto: durableView,
            policy: decider.clientRecordPolicy
        )
        storeHead = changes.head
        metrics.foreignCommits.increment(by: Int64(changes.commits.count))
        publish(published)
        decider = absorbed
        decideOpenBatchAgain(exceptRefreshed: Set(changes.clientRecords.map(\.instance)))
    }

    /// Decides every mutation of the open batch again on the current applied state, forgetting again the records it
    /// forgot unless another node wrote them since (`refreshed`: then they are in use).
    private func decideOpenBatchAgain(exceptRefreshed refreshed: Set<ClientInstanceID>) {
        let open = openBatch
        openBatch = OpenBatch()
        openBatch.openedAt = open.openedAt
        decider.decideAgain(
            open.requests,
            forgetting: open.forgottenInstances,
            exceptRefreshed: refreshed,
            into: &openBatch
        )
        metrics.clientRecords.set(decider.state.clientRecordCount)
    }

    /// Resumes the waiters whose revision is durable (every waiter with `all`).
    func resumeHeadWaiters(all: Bool = false) {
        guard !headWaiters.isEmpty else { return }
        let head = durableView.revision
        var still: [(revision: Revision, resume: @Sendable () -> Void)] = []
        for waiter in headWaiters {
            if all || waiter.revision <= head { waiter.resume() } else { still.append(waiter) }
        }
        headWaiters = still
    }

    /// Stops the engine after a store failure it cannot ride out.
    private func fail(_ error: StorageError) {
        guard !failed else { return }
        failed = true
        logger.critical("could not follow the shared store; stopping", metadata: ["goal.error": "\(error)"])
        onFatalError(error)
    }
}
