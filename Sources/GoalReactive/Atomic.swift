import Foundation

/// A value behind a lock, spelled as ReactiveSwift spells it: `value` to read or replace, `modify` to change it in
/// place, `withValue` to read it inside the lock, `swap` to replace it and get the old one.
///
/// Threading: every member may be called from any thread; each call holds the lock for its whole duration, so a
/// `modify` is atomic with respect to every other call. Do not call the same `Atomic` from inside `modify` or
/// `withValue` (the lock is not recursive). Lifetime: a reference; the value lives as long as the object.
/// `@unchecked Sendable`: `storage` is only touched under `lock`.
public final class Atomic<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    /// - Parameter value: The initial value.
    public init(_ value: Value) {
        storage = value
    }

    /// The current value; setting it replaces it atomically.
    public var value: Value {
        get { withValue { $0 } }
        set { modify { $0 = newValue } }
    }

    /// Changes the value in place under the lock.
    /// - Returns: What `action` returns.
    @discardableResult
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try action(&storage)
    }

    /// Reads the value under the lock.
    /// - Returns: What `action` returns.
    @discardableResult
    public func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try action(storage)
    }

    /// Replaces the value.
    /// - Returns: The value it had before.
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        modify { value in
            let old = value
            value = newValue
            return old
        }
    }
}
