import Foundation

/// A non-recursive lock guarding the mutable state of the library's reference types.
///
/// Why not `Synchronization.Mutex`:
/// - `Mutex<State>` cannot hold non-`Sendable` state such as observer closures without fighting region-based
///   isolation checks;
/// - on Linux its contended path is a raw futex inside the (uninstrumented) Synchronization library, which
///   ThreadSanitizer cannot see, so every contended section is reported as a data race. `NSLock` is a
///   `pthread_mutex_t`, which TSan understands.
///
/// So the library keeps such state in ordinary stored properties of an `@unchecked Sendable` class and guards
/// every access with one of these locks. Every type that does this says which lock guards which property.
///
/// Never call out to user code (observers, disposal actions, scheduled actions) while holding it.
final class Lock: @unchecked Sendable {
    // `@unchecked Sendable`: NSLock is thread-safe by construction.
    private let lock = NSLock()

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// Carries a value across an isolation boundary that the compiler cannot see is safe
/// (e.g. a non-`Sendable` action handed to `DispatchQueue.async`).
///
/// Every use site states why the hand-over is safe; in this library it always is "the value is used by
/// exactly one thread at a time, in an order established by a queue or a lock".
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}
