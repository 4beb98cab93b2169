import Dispatch
import GoalModel
import GoalStore

/// Persists closed batches on its own serial queue, one durable (fsynced) transaction per batch, while the engine
/// fills the next batch. On a store other nodes write too (`SharedLeagueStorage`) it also reads what they wrote.
///
/// Threading: `write` and `readChanges` may be called from any thread but the engine calls them only when nothing
/// is in flight, so batches reach the store one at a time, in order. Completions run on the writer queue (the engine
/// enqueues what they bring onto its own queue). The writer never waits for the engine: a shared store's refusal is
/// decided again by the `BatchRebase` the write carries. `Sendable`: it holds only the queue and the store, both
/// `Sendable`. Lifetime: as long as the engine.
final class BatchWriter: Sendable {
    private let queue = DispatchQueue(label: "goald.writer", qos: .userInitiated)
    private let storage: any LeagueStorage
    private let shared: (any SharedLeagueStorage)?

    init(storage: any LeagueStorage) {
        self.storage = storage
        self.shared = storage as? any SharedLeagueStorage
    }

    /// True when other nodes write the store too.
    var isShared: Bool { shared != nil }

    /// Writes `pending.batch` in one transaction on the store as it was at `base`, then calls `completion` with the
    /// store's head after it and `pending` as the write left it.
    ///
    /// On a shared store that moved past `base`, `pending.rebase(onto:)` decides the batch again on what the others
    /// wrote, and that batch is written instead (the completion's `BatchRebase` holds it and what was absorbed, also
    /// when the write then failed). On any other store, a batch the store already holds counts as written: an
    /// attempt may commit and then lose its connection before it hears so (`StorageError.unavailable`), and the
    /// engine writes the batch again. The store then refuses it (`revisionGap`), and its head and digest are the
    /// batch's last; the digest chains the whole history, so no other batch ends that way.
    func write(
        _ pending: BatchRebase,
        onto base: StoreHead,
        completion: @escaping @Sendable (Result<StoreHead, StorageError>, BatchRebase) -> Void
    ) {
        queue.async {
            var pending = pending
            if let shared = self.shared {
                do throws(StorageError) {
                    let head = try shared.append(pending.batch.storage, onto: base) { changes throws(StorageError) in
                        try pending.rebase(onto: changes)
                    }
                    completion(.success(head), pending)
                } catch {
                    completion(.failure(error), pending)
                }
                return
            }
            let batch = pending.batch
            let after = StoreHead(revision: batch.storage.lastRevision ?? base.revision, version: base.version + 1)
            do throws(StorageError) {
                try self.storage.append(batch.storage)
                completion(.success(after), pending)
            } catch {
                completion(
                    self.isAlreadyWritten(batch, refusedWith: error) ? .success(after) : .failure(error),
                    pending
                )
            }
        }
    }

    /// Reads what other nodes wrote to a shared store after `base` (an empty change set for any other store).
    func readChanges(
        after base: StoreHead,
        completion: @escaping @Sendable (Result<ForeignChanges, StorageError>) -> Void
    ) {
        queue.async {
            guard let shared = self.shared else {
                return completion(.success(ForeignChanges(commits: [], clientRecords: [], head: base)))
            }
            do throws(StorageError) {
                completion(.success(try shared.changes(after: base)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    private func isAlreadyWritten(_ batch: ClosedBatch, refusedWith error: StorageError) -> Bool {
        guard error.code == .revisionGap, let last = batch.storage.commits.last else { return false }
        do {
            let bounds = try storage.logBounds()
            return bounds.head == last.revision && bounds.headDigest == last.changeset.digest
        } catch {
            return false  // the refusal stands; the engine reports it
        }
    }
}
