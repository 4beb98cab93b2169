/// Something values can be bound to with `<~`: it hands out a ``BindingTarget``.
///
/// Conformers in this library: ``MutableProperty`` (any ``MutablePropertyProtocol``), ``BindingTarget``,
/// ``Action`` (each value applies the action) and `Optional` of those.
public protocol BindingTargetProvider<Value> {
    /// The type of values the target accepts.
    associatedtype Value

    /// The target: its lifetime bounds every binding into it; its action consumes the values.
    var bindingTarget: BindingTarget<Value> { get }
}

/// A consumer of bound values with a lifetime: `target <~ source` calls ``action`` with every value of `source`
/// until ``lifetime`` ends or `source` terminates.
///
/// ```swift
/// let (lifetime, token) = Lifetime.make()          // kept by the owner (e.g. a view)
/// let title = BindingTarget<String>(lifetime: lifetime) { [weak label] in label?.text = $0 }
/// title <~ viewModel.title
/// ```
///
/// Threading: ``action`` runs on the thread the source delivers on, unless the target was created with a
/// scheduler, in which case every value is applied through `scheduler.schedule`. A binding never retains the
/// owner of the lifetime; capture the object the action writes to weakly (the key-path initializer does).
public struct BindingTarget<Value>: BindingTargetProvider {
    /// Bounds every binding into this target: a binding ends when it ends.
    public let lifetime: Lifetime

    /// Consumes one bound value.
    public let action: (Value) -> Void

    /// Creates a target.
    ///
    /// - Parameters:
    ///   - scheduler: Where to apply values; `nil` (the default) applies them synchronously on the delivering
    ///     thread, like ReactiveSwift's `ImmediateScheduler` default.
    ///   - lifetime: Ends every binding into this target.
    ///   - action: Consumes a value.
    public init(on scheduler: (any Scheduler)? = nil, lifetime: Lifetime, action: @escaping (Value) -> Void) {
        self.lifetime = lifetime
        if let scheduler, !(scheduler is ImmediateScheduler) {
            self.action = { value in scheduler.schedule { action(value) } }
        } else {
            self.action = action
        }
    }

    /// Creates a target that writes values to `keyPath` of `object`, which it holds weakly.
    ///
    /// - Parameters:
    ///   - scheduler: Where to apply values; `nil` applies them synchronously.
    ///   - lifetime: Ends every binding into this target (usually the object's own lifetime).
    ///   - object: The object written to; not retained.
    ///   - keyPath: The property written.
    public init<Object: AnyObject>(
        on scheduler: (any Scheduler)? = nil,
        lifetime: Lifetime,
        object: Object,
        keyPath: ReferenceWritableKeyPath<Object, Value>
    ) {
        self.init(on: scheduler, lifetime: lifetime) { [weak object] value in object?[keyPath: keyPath] = value }
    }

    /// The target itself.
    public var bindingTarget: BindingTarget<Value> { self }
}

extension Optional: BindingTargetProvider where Wrapped: BindingTargetProvider {
    /// The wrapped target, or — for `nil` — a target whose lifetime has already ended, so binding does nothing.
    public var bindingTarget: BindingTarget<Wrapped.Value> {
        switch self {
        case let .some(provider): return provider.bindingTarget
        case .none: return BindingTarget(lifetime: .empty) { _ in }
        }
    }
}
