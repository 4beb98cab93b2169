/// A thread-safe, observable value that can be set: the input/state type of view models.
///
/// ```swift
/// let name = MutableProperty("")
/// name.producer.startWithValues { print($0) }   // "" now, then every change
/// name.value = "Ada"                             // "Ada"
/// ```
///
/// Streams:
/// - ``producer``: the current value first (synchronously, on start), then every set; the replay and the
///   subscription are atomic, so no concurrent set slips in between.
/// - ``signal``: every set after observation, **including sets to an equal value** (no de-duplication).
/// - Both complete when the property deinitializes. A producer obtained earlier and started after that sends the
///   last value, then `.completed`.
///
/// Threading: one **recursive** lock guards the value; every emission happens while it is held. So concurrent
/// sets from any threads are serialized and each set reaches every observer before the next one is applied (a set
/// from another thread blocks while observers run); reading ``value``, calling ``withValue(_:)`` or starting
/// ``producer`` from inside an observer works. Calling ``modify(_:)`` from inside another `modify` closure of the
/// same property traps (exclusive access), as in ReactiveSwift. The library does not check that `Value` is safe
/// to share between threads (see Contracts, "Threading and `Sendable`").
///
/// Re-entrancy: setting the property from inside one of its own observers delivers the new value **at once,
/// nested** (ReactiveSwift 7.2.1): with observers A then B and A setting 2 when it sees 1, setting 1 makes A see
/// `[1, 2]` and B see `[2, 1]`; the final value is 2. See Contracts, "Property re-entrancy".
///
/// Lifetime: the property does not keep its observers' subjects alive and nothing it hands out keeps it alive
/// (producers retain only its storage). ``lifetime`` ends when it deinitializes, which also ends every binding
/// into it.
@propertyWrapper
public final class MutableProperty<Value>: ComposableMutablePropertyProtocol, @unchecked Sendable {
    // `@unchecked Sendable`: all mutable state lives in `PropertyStorage`, guarded by its recursive lock.
    private let storage: PropertyStorage<Value>
    private let token: Lifetime.Token

    /// Ends when the property deinitializes.
    public let lifetime: Lifetime

    /// Creates a property holding `initialValue`.
    ///
    /// - Parameters:
    ///   - initialValue: The first value.
    public init(_ initialValue: Value) {
        storage = PropertyStorage(initialValue)
        (lifetime, token) = Lifetime.make()
    }

    /// Creates a property holding `wrappedValue` (the `@MutableProperty var x = …` form; `$x` is the property).
    ///
    /// - Parameters:
    ///   - wrappedValue: The first value.
    public convenience init(wrappedValue: Value) {
        self.init(wrappedValue)
    }

    deinit {
        storage.terminate()
    }

    /// The current value. Setting it is `modify { $0 = newValue }`: observers are notified synchronously.
    public var value: Value {
        get { storage.value }
        set { storage.modify { $0 = newValue } }
    }

    /// The property-wrapper view of ``value``.
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// The property itself (`$x` of `@MutableProperty var x`).
    public var projectedValue: MutableProperty<Value> { self }

    /// Every set after observation; completes when the property deinitializes.
    public var signal: Signal<Value, Never> { storage.signal }

    /// The current value, then every set; completes when the property deinitializes.
    public var producer: SignalProducer<Value, Never> { storage.producer }

    /// Mutates the value atomically and then emits the new value, still under the lock.
    ///
    /// - Parameters:
    ///   - action: Mutates the value; must not call `modify` on this property again.
    /// - Returns: What `action` returned.
    @discardableResult
    public func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result {
        try storage.modify(action)
    }

    /// Reads the value atomically, without emitting.
    ///
    /// - Parameters:
    ///   - action: Receives the current value while the lock is held.
    /// - Returns: What `action` returned.
    public func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result {
        try storage.withValue(action)
    }

    /// Atomically replaces the value, emits the new one and returns the old one.
    ///
    /// - Parameters:
    ///   - newValue: The value to store.
    /// - Returns: The previous value.
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        storage.swap(newValue)
    }
}
