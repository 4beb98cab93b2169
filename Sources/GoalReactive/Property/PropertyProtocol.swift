/// A read-only view of a value that changes over time.
///
/// - ``value`` is the current value.
/// - ``producer`` sends the current value first, synchronously on start, then every change.
/// - ``signal`` sends changes only (nothing on observe).
///
/// Both streams complete when the property — for a composed property, its ultimate source — deinitializes;
/// they never fail. Every property is also a ``BindingSource``: binding it with `<~` delivers its current value
/// at once.
///
/// Threading: implementations in this library are thread-safe; see ``MutableProperty`` and ``Property``.
public protocol PropertyProtocol<Value>: AnyObject, BindingSource {
    /// The current value.
    var value: Value { get }

    /// The current value, then every change; completes when the property (or its ultimate source) deinitializes.
    var producer: SignalProducer<Value, Never> { get }

    /// Every change after observation starts; completes when the property (or its ultimate source) deinitializes.
    var signal: Signal<Value, Never> { get }
}

/// A property whose value can be set, and which owns a ``Lifetime`` ending when it deinitializes.
///
/// Every mutable property is a ``BindingTargetProvider``: `property <~ source` sets `value` for each value of
/// `source` until the property deinitializes.
public protocol MutablePropertyProtocol<Value>: PropertyProtocol, BindingTargetProvider {
    /// The current value; setting it notifies observers synchronously.
    var value: Value { get set }

    /// Ends when the property deinitializes.
    var lifetime: Lifetime { get }
}

/// A mutable property with atomic read-modify-write.
public protocol ComposableMutablePropertyProtocol<Value>: MutablePropertyProtocol {
    /// Reads the current value atomically (no emission).
    ///
    /// - Parameters:
    ///   - action: Receives the current value while the property's lock is held.
    /// - Returns: What `action` returned.
    func withValue<Result>(_ action: (Value) throws -> Result) rethrows -> Result

    /// Mutates the value atomically, then emits the new value.
    ///
    /// - Parameters:
    ///   - action: Mutates the value while the property's lock is held.
    /// - Returns: What `action` returned.
    func modify<Result>(_ action: (inout Value) throws -> Result) rethrows -> Result
}

extension MutablePropertyProtocol {
    /// Sets `value` for each value bound to it, while the property lives. The target holds the property weakly.
    public var bindingTarget: BindingTarget<Value> {
        BindingTarget(lifetime: lifetime) { [weak self] value in self?.value = value }
    }
}
