import Foundation
public import GoalModel

/// Mints mutation ids (client instance, seq) with seq 1, 2, 3 … — when a mutation is created, not when it is sent.
///
/// A protocol so a `goal-client` can persist its last seq across runs later; `InMemoryMutationIDMinter` keeps it in
/// memory for the life of the process. Threading: conformers are `Sendable` and `mint()` may be called from any
/// thread.
public protocol MutationIDMinter: Sendable {
    /// The client instance every minted id belongs to (sent in `hello`).
    var instance: ClientInstanceID { get }
    /// The next id: the same instance, seq one higher than the last.
    func mint() -> MutationID
}

/// Mints ids in memory, starting after `lastSeq`.
///
/// Threading: thread-safe. `@unchecked Sendable` because `lastSeq` is guarded by `lock`.
public final class InMemoryMutationIDMinter: MutationIDMinter, @unchecked Sendable {
    public let instance: ClientInstanceID
    private let lock = NSLock()
    private var lastSeq: UInt64

    /// - Parameters:
    ///   - instance: The client instance (a fresh random one by default).
    ///   - lastSeq: The last seq already used by this instance (0 for a new instance).
    public init(instance: ClientInstanceID = .random(), lastSeq: UInt64 = 0) {
        self.instance = instance
        self.lastSeq = lastSeq
    }

    public func mint() -> MutationID {
        lock.lock()
        defer { lock.unlock() }
        lastSeq += 1
        return MutationID(instance: instance, seq: lastSeq)
    }
}
