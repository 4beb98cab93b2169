import GoalModel
import GoalStore
import GoalWire

/// The engine's decisions as a value: the applied league state and its chained head digest, on which each mutation
/// is checked and merged (`ConflictEngine.apply`) into an open batch, and from which batches are closed. No I/O, no
/// metrics, no logging: `decide` returns what happened and the engine counts it.
///
/// Value type, `Sendable`. The engine owns one, confined to its queue; the writer decides a refused batch again with a
/// copy of its own (`BatchRebase`), so it never has to reach into the engine.
struct BatchDecider: Sendable {
    var state: LeagueState
    var headDigest: Digest
    let clientRecordPolicy: ClientRecordPolicy

    /// What `decide` did with one mutation, for the engine's metrics and logs.
    enum Verdict {
        /// The token's role does not permit the action: answered `unauthorized`.
        case unauthorized
        /// The exactly-once table is full and the instance has no record: answered `overloaded`.
        case tableFull
        /// Decided by the conflict engine (committed, a no-op, rejected or a duplicate).
        case decided(EngineDecision)
    }

    /// Decides one mutation on `state` and adds its commit, record and answer to `batch`.
    mutating func decide(_ timed: TimedRequest, into batch: inout OpenBatch) -> Verdict {
        let request = timed.request
        let mutation = request.mutation
        let instance = mutation.id.instance
        let message: ServerMessage
        let verdict: Verdict
        if !request.role.permits(mutation.action) {
            verdict = .unauthorized
            message = .rejected(seq: mutation.id.seq, .unauthorized(request.role, mutation.action))
        } else if state.clientRecord(for: instance) == nil,
            state.clientRecordCount >= clientRecordPolicy.maximumCount
        {
            // Evicting a record younger than the policy's age would let a re-send of its mutations apply twice.
            verdict = .tableFull
            message = .overloaded(seq: mutation.id.seq, retryAfterMilliseconds: Engine.tableFullRetryMilliseconds)
        } else {
            let decision = ConflictEngine.apply(mutation, author: request.author, to: &state)
            state.markClientRecordUsed(instance, at: timed.time)
            switch decision {
            case .commit(let commit):
                // `encode` computes the chained digest (the changeset's own digest field is not read).
                var changeset = commit.changeset(time: timed.time, digest: headDigest)
                let frame = ChangesetFrame.encode(changeset, previousDigest: headDigest)
                changeset.digest = frame.digest
                headDigest = frame.digest
                batch.commits.append(LoggedCommit(changeset: changeset, frame: frame.bytes))
                batch.touchedInstances.insert(instance)
            case .noop, .rejected:
                batch.touchedInstances.insert(instance)
            case .duplicate:
                break
            }
            verdict = .decided(decision)
            message = ServerMessage.outcome(seq: mutation.id.seq, decision.outcome)
        }
        batch.markOpened()
        batch.requests.append(timed)
        batch.replies.append(
            DecidedReply(address: request.replyTo, message: message, after: state.revision, direct: request.direct)
        )
        return verdict
    }

    /// The batch `open` holds, closed on the current state; `open` is left empty. `openedAt` replaces the batch's
    /// own opening time (a batch decided again keeps the time it was first opened).
    mutating func close(_ open: inout OpenBatch, openedAt: ContinuousClock.Instant? = nil) -> ClosedBatch {
        let batch = ClosedBatch(
            storage: StorageBatch(
                commits: open.commits,
                clientRecords: open.touchedInstances.compactMap { state.clientRecord(for: $0) },
                forgottenClients: Array(open.forgottenInstances)
            ),
            stateAfter: state,
            digestAfter: headDigest,
            replies: open.replies,
            openedAt: openedAt ?? open.openedAt ?? .now,
            requests: open.requests
        )
        open = OpenBatch()
        return batch
    }

    /// Decides again, on this state and keeping their order and times, mutations decided on another one (after
    /// other nodes wrote first): the records they forgot are forgotten again unless another node wrote them since
    /// (`refreshed`: then they are in use), then each request is decided into `batch`.
    mutating func decideAgain(
        _ requests: [TimedRequest],
        forgetting forgotten: some Sequence<ClientInstanceID>,
        exceptRefreshed refreshed: Set<ClientInstanceID>,
        into batch: inout OpenBatch
    ) {
        for instance in forgotten where !refreshed.contains(instance) {
            state.forgetClientRecord(instance)
            batch.forgottenInstances.insert(instance)
        }
        for timed in requests { _ = decide(timed, into: &batch) }
    }

    /// A decider standing on what other writers wrote after `durable`: their commits applied in order, then the
    /// exactly-once records they wrote.
    /// - Returns: The decider and the batch that publishes their commits (with their stored frames, no answers).
    /// - Throws: `StorageError.inconsistent` when one of their changesets does not apply here.
    static func absorbing(
        _ changes: ForeignChanges,
        onto durable: DurableView,
        policy: ClientRecordPolicy
    ) throws(StorageError) -> (decider: BatchDecider, published: ClosedBatch) {
        var foreign = durable.state
        var digest = durable.digest
        do {
            for commit in changes.commits {
                try foreign.apply(commit.changeset)
                digest = commit.changeset.digest
            }
        } catch {
            throw StorageError.inconsistent("another node's changeset does not apply here: \(error)")
        }
        for record in changes.clientRecords { foreign.replaceClientRecord(record) }
        let published = ClosedBatch(
            storage: StorageBatch(commits: changes.commits),
            stateAfter: foreign,
            digestAfter: digest,
            replies: [],
            openedAt: .now
        )
        return (BatchDecider(state: foreign, headDigest: digest, clientRecordPolicy: policy), published)
    }
}
