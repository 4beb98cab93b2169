import Dispatch
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
    func write(_ batch: ClosedBatch, completion: @escaping @Sendable (Result<Void, StorageError>) -> Void) {
        queue.async {
            do throws(StorageError) {
                try self.storage.append(batch.storage)
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
