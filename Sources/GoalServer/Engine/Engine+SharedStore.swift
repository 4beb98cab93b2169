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
/// - A batch written on a store that moved is decided again on what the others wrote (`rebase(onto:)`, called by
///   the writer when the store refused it), as are the mutations decided after it; the others' commits are published
///   first, with their stored frames.
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
        guard writer.isShared, !parked.isEmpty || timed.request.mutation.base > state.revision else { return false }
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

    /// Called by the writer when the store moved past the batch in flight (once per refused attempt, each time with
    /// what was written after the previous one): absorbs what the others wrote and decides the batch in flight and
    /// the open batch again.
    /// - Returns: The batch to write instead.
    func rebase(onto changes: ForeignChanges) throws(StorageError) -> StorageBatch {
        metrics.rebasedBatches.increment()
        try absorb(changes)
        return inFlight?.storage ?? StorageBatch()
    }

    /// Applies what other nodes wrote to the durable state, publishes their commits, and decides every mutation
    /// not yet durable again on top of it (keeping their order and their times).
    private func absorb(_ changes: ForeignChanges) throws(StorageError) {
        let base = durableView
        var foreign = base.state
        var digest = base.digest
        do {
            for commit in changes.commits {
                try foreign.apply(commit.changeset)
                digest = commit.changeset.digest
            }
        } catch {
            throw StorageError.inconsistent("another node's changeset does not apply here: \(error)")
        }
        for record in changes.clientRecords { foreign.replaceClientRecord(record) }
        storeHead = changes.head
        metrics.foreignCommits.increment(by: Int64(changes.commits.count))
        publish(
            ClosedBatch(
                storage: StorageBatch(commits: changes.commits),
                stateAfter: foreign,
                digestAfter: digest,
                replies: [],
                openedAt: .now
            )
        )
        state = foreign
        headDigest = digest
        let refreshed = Set(changes.clientRecords.map(\.instance))
        if let batch = inFlight {
            var again = OpenBatch()
            forget(batch.storage.forgottenClients, exceptRefreshed: refreshed, into: &again)
            for timed in batch.requests { decide(timed, into: &again, counting: false) }
            inFlight = close(&again, openedAt: batch.openedAt)
        }
        let open = openBatch
        openBatch = OpenBatch()
        openBatch.openedAt = open.openedAt
        forget(Array(open.forgottenInstances), exceptRefreshed: refreshed, into: &openBatch)
        for timed in open.requests { decide(timed, into: &openBatch, counting: false) }
    }

    /// Forgets again the records a batch forgot, unless another node wrote them since (then they are in use).
    private func forget(
        _ instances: [ClientInstanceID],
        exceptRefreshed refreshed: Set<ClientInstanceID>,
        into batch: inout OpenBatch
    ) {
        for instance in instances where !refreshed.contains(instance) {
            state.forgetClientRecord(instance)
            batch.forgottenInstances.insert(instance)
        }
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
