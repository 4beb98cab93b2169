import GoalLocking

/// Resumes a continuation at most once, from whichever callback comes first. Thread-safe (`LockedValue`).
final class OnceBox<Value: Sendable, Failure: Error>: Sendable {
    private let continuation: LockedValue<CheckedContinuation<Value, Failure>?>

    init(_ continuation: CheckedContinuation<Value, Failure>) {
        self.continuation = LockedValue(continuation)
    }

    /// Resumes with `result` unless already resumed. - Returns: true when this call resumed it.
    @discardableResult
    func resume(_ result: Result<Value, Failure>) -> Bool {
        guard
            let taken = continuation.withLock({ value -> CheckedContinuation<Value, Failure>? in
                defer { value = nil }
                return value
            })
        else { return false }
        taken.resume(with: result)
        return true
    }
}
