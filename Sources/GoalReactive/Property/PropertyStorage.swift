import Foundation

/// The shared machinery of ``MutableProperty`` and composed ``Property`` instances: the cached value, its
/// recursive lock and the changes signal.
///
/// Retained by its property and by every producer obtained from it; never by the property's sources. A composed
/// property's storage is also retained by its subscription to the source, so it lives as long as the source does.
///
/// Locking (why this is `@unchecked Sendable`): `lock` (recursive) guards `current`, `input` and `isTerminated`.
/// It is held **while observers run**: every emission happens under it, so concurrent mutations are serialized and
/// each one reaches every observer before the next is applied. It is recursive so that observers may read the
/// value, start the producer, or set the value again (nested delivery through the unserialized pipe).
final class PropertyStorage<Value>: @unchecked Sendable {
    let lock = NSRecursiveLock()
    /// `nil` only until a composed property received its source's current value.
    private var current: Value?
    private var isTerminated = false
    let signal: Signal<Value, Never>
    /// Released (under `lock`) on termination, so that its deinit never races with a send.
    private var input: Signal<Value, Never>.Observer?

    init(_ initial: Value?) {
        current = initial
        let (signal, input) = Signal<Value, Never>.unserializedPipe()
        self.signal = signal
        self.input = input
    }

    var hasValue: Bool {
        lock.lock()
        defer { lock.unlock() }
        return current != nil
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return current!
    }

    func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try action(current!)
    }

    /// Mutates the value and emits it, both under the lock. A nested `modify` from inside `action` violates
    /// exclusive access to `current` and traps, as in ReactiveSwift.
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        let result = try action(&current!)
        input?.send(value: current!)
        return result
    }

    /// Replaces the value and emits the new one; returns the old value.
    func swap(_ newValue: Value) -> Value {
        modify { value in
            let old = value
            value = newValue
            return old
        }
    }

    /// Caches and emits a source value; a terminal source event completes the storage (interruption included).
    func receive(_ event: Signal<Value, Never>.Event) {
        lock.lock()
        defer { lock.unlock() }
        guard case let .value(value) = event else {
            terminateLocked()
            return
        }
        current = value
        input?.send(value: value)
    }

    /// Completes the changes signal. Idempotent.
    func terminate() {
        lock.lock()
        defer { lock.unlock() }
        terminateLocked()
    }

    private func terminateLocked() {
        guard !isTerminated else { return }
        isTerminated = true
        input?.sendCompleted()
        input = nil
    }

    /// On each start, atomically: the current value, then the changes (or `.completed` if already terminated).
    ///
    /// A value set from inside the replay callback is not seen by that subscriber: it is attached to ``signal``
    /// only after the replay, exactly like ReactiveSwift.
    var producer: SignalProducer<Value, Never> {
        SignalProducer { observer, lifetime in
            self.lock.lock()
            defer { self.lock.unlock() }
            observer.send(value: self.current!)
            if self.isTerminated {
                observer.sendCompleted()
            } else {
                lifetime += self.signal.observe(observer)
            }
        }
    }
}
