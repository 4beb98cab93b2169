import Dispatch
import GoalModel
import GoalStore

/// Persists closed batches on its own serial queue, one durable (fsynced) transaction per batch, while the engine
/// fills the next batch.
///
/// Threading: `write` may be called from any thread but the engine calls it only when no write is in flight, so
/// batches reach the store one at a time, in order. `completion` runs on the writer queue. `Sendable`: it holds
/// only the queue and the store, both `Sendable`. Lifetime: as long as the engine.
final class BatchWriter: Sendable {
    private let queue = DispatchQueue(label: "goald.writer", qos: .userInitiated)
    private let storage: any LeagueStorage

    init(storage: any LeagueStorage) {
        self.storage = storage
    }

    /// Writes `batch.storage` in one transaction, then calls `completion` with the result.
    ///
    /// A batch the store already holds counts as written: an attempt may commit and then lose its connection
    /// before it hears so (`StorageError.unavailable`), and the engine writes the batch again. The store then
    /// refuses it (`revisionGap`), and its head and digest are the batch's last; the digest chains the whole
    /// history, so no other batch ends that way.
    func write(_ batch: ClosedBatch, completion: @escaping @Sendable (Result<Void, StorageError>) -> Void) {
        queue.async {
            do throws(StorageError) {
                try self.storage.append(batch.storage)
                completion(.success(()))
            } catch {
                completion(self.isAlreadyWritten(batch, refusedWith: error) ? .success(()) : .failure(error))
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
