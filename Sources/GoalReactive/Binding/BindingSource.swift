/// Something that can be bound to a target with `<~`: a stream of values that cannot fail.
///
/// Conformers: ``Signal`` and ``SignalProducer`` with `Error == Never`, and every ``PropertyProtocol`` (bound
/// through its `producer`, so the target takes the property's current value at once).
///
/// Difference from ReactiveSwift: there the requirement is `producer` (inherited from
/// `SignalProducerConvertible`); here it is ``bindingProducer``, so that this protocol does not depend on the
/// operator library. `<~` reads the same.
public protocol BindingSource<Value> {
    /// The type of values bound.
    associatedtype Value

    /// The values to bind. Binding starts this producer once.
    var bindingProducer: SignalProducer<Value, Never> { get }
}

extension PropertyProtocol {
    /// The property's `producer`: its current value, then every change.
    public var bindingProducer: SignalProducer<Value, Never> { producer }
}

extension Signal: BindingSource where Error == Never {
    /// A producer observing this signal.
    public var bindingProducer: SignalProducer<Value, Never> { producer }
}

extension SignalProducer: BindingSource where Error == Never {
    /// The producer itself.
    public var bindingProducer: SignalProducer<Value, Never> { self }
}
