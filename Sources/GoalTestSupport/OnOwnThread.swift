import Foundation

/// Runs a long synchronous test body on a thread of its own and waits for it without holding one of Swift
/// concurrency's threads. A synchronous test runs on the cooperative pool, which has one thread per core (two on
/// CI): a body that computes for a minute there leaves every async test beside it (listeners, daemons, polls) one
/// thread or none, and their waits time out. `body` must not record issues (it runs outside the test's task):
/// return what it found and expect on that.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
