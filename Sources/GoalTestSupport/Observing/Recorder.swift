public import GoalReactive

/// Records every value a signal or property delivers, for tests of view models and the live client.
///
/// Threading: main actor; observe only signals that send on it. Lifetime: observes until it is deallocated, then
/// disposes its observation (so a dropped recorder is never called again).
@MainActor
public final class Recorder<Value> {
    /// Every value so far, in delivery order.
    public private(set) var values: [Value] = []
    private var disposable: (any Disposable)?

    public init(_ signal: Signal<Value, Never>) {
        disposable = signal.observeValues { [unowned self] in values.append($0) }
    }

    /// Records the property's current value, then every change.
    public init(_ property: Property<Value>) {
        disposable = property.producer.startWithValues { [unowned self] in values.append($0) }
    }

    /// Returns and forgets the values so far.
    public func take() -> [Value] {
        defer { values = [] }
        return values
    }

    deinit { disposable?.dispose() }
}
