import GoalLocking
import GoalModel
public import GoalStore

/// Wraps a `LeagueStorage` and fails chosen `append` calls as a failing disk would (`StorageError.database`, see
/// `fault(append:)`), for tests of what the daemon does when a batch cannot be made durable. Test support only:
/// nothing of it ships in goald. A failed append never reaches the wrapped
/// store, so nothing of that batch is written; every other call is forwarded unchanged.
///
/// Threading: `Sendable`; the append counter is lock-protected, so the count is exact even if calls race.
/// Lifetime: holds the wrapped store strongly; `close()` closes it.
public final class FaultInjectingStorage: ForwardingLeagueStorage {
    /// Which appends fail.
    public enum Plan: Hashable, Sendable {
        /// Only the Nth append (1-based) fails; later ones are forwarded.
        case onlyAppend(Int)
        /// The Nth append and every later one fail.
        case fromAppend(Int)
    }

    /// The wrapped store.
    public let base: any LeagueStorage
    private let plan: Plan
    private let appends = LockedValue(0)

    /// - Parameters:
    ///   - base: The store that receives every call that does not fail.
    ///   - plan: Which appends fail.
    public init(wrapping base: any LeagueStorage, plan: Plan) {
        self.base = base
        self.plan = plan
    }

    /// The error append number `append` (1-based) fails with: not transient, so the daemon stops, as on a disk error.
    public static func fault(append: Int) -> StorageError {
        .database(operation: "append #\(append)", detail: "fault injected by FaultInjectingStorage")
    }

    /// How many times `append` was called so far, failed ones included.
    public var appendCount: Int { appends.withLock { $0 } }

    public func append(_ batch: StorageBatch) throws(StorageError) {
        let number = appends.withLock { count in
            count += 1
            return count
        }
        switch plan {
        case .onlyAppend(let failing) where number == failing, .fromAppend(let failing) where number >= failing:
            throw Self.fault(append: number)
        default:
            try base.append(batch)
        }
    }
}
