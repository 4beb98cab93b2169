import Foundation

/// The mutable state of an ``Action``: the latest state value, whether the user condition holds, and whether an
/// execution is running. Kept apart from the action so that the subscription to the state property does not
/// retain the action.
///
/// Locking (why this is `@unchecked Sendable`): `lock` (recursive) guards `value`, `isUserEnabled` and
/// `isExecuting`; the derived `isEnabled`/`isExecuting` properties are set while it is held, `isEnabled` first, and
/// only when they actually change. They have their own storage, so an observer of them may feed back into the
/// action's state property (re-entering `lock` on the same thread) without deadlocking.
final class ActionState: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var value: Any
    private var isUserEnabled: Bool
    private var isExecuting = false
    private let isUserEnabledFor: (Any) -> Bool

    let isEnabledProperty: MutableProperty<Bool>
    let isExecutingProperty: MutableProperty<Bool>

    init(value: Any, isUserEnabled isUserEnabledFor: @escaping (Any) -> Bool) {
        self.value = value
        self.isUserEnabledFor = isUserEnabledFor
        isUserEnabled = isUserEnabledFor(value)
        isEnabledProperty = MutableProperty(isUserEnabled)
        isExecutingProperty = MutableProperty(false)
    }

    /// Runs `body` under the lock, then publishes the flags that changed (`isEnabled` first).
    private func modify<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        let wasEnabled = isUserEnabled && !isExecuting
        let wasExecuting = isExecuting
        let result = body()
        let isEnabled = isUserEnabled && !isExecuting
        let isExecutingNow = isExecuting
        if wasEnabled != isEnabled { isEnabledProperty.value = isEnabled }
        if wasExecuting != isExecutingNow { isExecutingProperty.value = isExecutingNow }
        return result
    }

    /// Records a new value of the action's state property.
    func update(_ newValue: Any) {
        modify {
            value = newValue
            isUserEnabled = isUserEnabledFor(newValue)
        }
    }

    /// Atomically: if enabled, marks an execution as running and returns the state value the predicate saw;
    /// otherwise returns `nil`.
    func beginExecution() -> Any? {
        modify { () -> Any? in
            guard isUserEnabled && !isExecuting else { return nil }
            isExecuting = true
            return value
        }
    }

    /// Marks the running execution as finished.
    func endExecution() {
        modify { isExecuting = false }
    }
}
