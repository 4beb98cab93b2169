import Foundation

/// A value guarded by a lock the thread sanitizer understands: the package's one lock for shared mutable state
/// outside the event loops (GoalReactive keeps its own `Lock`, NIO code may use `NIOLockedValueBox`).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path is a raw futex inside the uninstrumented
/// Synchronization library, which ThreadSanitizer cannot see, so the CI's TSan stage would report every contended
/// critical section as a data race, or, where none was reported, prove nothing. `NSLock` is a `pthread_mutex_t`,
/// which TSan models (issue 34 point 5).
///
/// Threading: `withLock` may be called from any thread; never call out to code that may take the same lock while
/// holding it (it is not recursive). Lifetime: as long as the object.
public final class LockedValue<Value> {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held and the value lent to it.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// `@unchecked Sendable`: `value` is read and written only inside `withLock`, with `lock` held.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
