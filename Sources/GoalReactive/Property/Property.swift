/// A read-only property: the output type of view models. Three flavours:
///
/// - **Constant**, ``init(value:)``: `value` never changes; `producer` sends it and completes; `signal` has
///   already terminated, so observers receive a single `.interrupted` (late-observer rule).
/// - **Existential**, ``init(capturing:)``: forwards to another property and **retains** it.
/// - **Composed**, ``init(_:)``, ``init(initial:then:)-(_,SignalProducer)`` and every combinator (`map`,
///   `combineLatest`, `skipRepeats`, …): caches the latest value in its own storage, so `value` stays readable
///   after the sources are gone. It does **not** retain its sources and does not own its lifetime: its streams
///   complete when the **ultimate source** deinitializes (or the source producer terminates), never because the
///   composed property itself was released. Afterwards `producer` sends the cached value, then `.completed`.
///   The cache is updated before observers are notified.
///
/// Threading: thread-safe. A composed property emits under its own recursive lock, like ``MutableProperty``, so
/// its producer's replay and subscription are atomic and observers may read `value`. Composed properties build
/// their current value synchronously from their sources' producers.
///
/// Lifetime: a composed property's subscription to its source lives as long as the source does (as in
/// ReactiveSwift); releasing the composed property does not end it.
public final class Property<Value>: PropertyProtocol, @unchecked Sendable {
    // `@unchecked Sendable`: the stored state is immutable; `PropertyStorage` and captured properties are
    // thread-safe.
    private enum Backing {
        case constant(Value)
        case captured(any PropertyProtocol<Value>)
        case composed(PropertyStorage<Value>)
    }

    private let backing: Backing

    private init(backing: Backing) {
        self.backing = backing
    }

    /// A constant property.
    ///
    /// - Parameters:
    ///   - value: The value forever.
    public convenience init(value: Value) {
        self.init(backing: .constant(value))
    }

    /// A property forwarding to `property`, which it retains.
    ///
    /// - Parameters:
    ///   - property: The property to wrap.
    public convenience init<P: PropertyProtocol>(capturing property: P) where P.Value == Value {
        self.init(backing: .captured(property))
    }

    /// A composed property reflecting `property` without retaining it.
    ///
    /// - Parameters:
    ///   - property: The source; its streams' completion ends this property's streams.
    public convenience init<P: PropertyProtocol>(_ property: P) where P.Value == Value {
        self.init(composing: { sink in property.producer.start(sink) })
    }

    /// A composed property that starts with `initial` and then takes every value of `values`.
    ///
    /// `values` is started immediately; a value it sends synchronously replaces `initial` at once. When `values`
    /// completes or is interrupted, the property's streams complete (interruption is mapped to completion).
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: The source of later values.
    public convenience init(initial: Value, then values: SignalProducer<Value, Never>) {
        let storage = PropertyStorage<Value>(initial)
        values.start(storage.receive)
        self.init(backing: .composed(storage))
    }

    /// A composed property that starts with `initial` and then takes every value of `values`; see
    /// ``init(initial:then:)-(_,SignalProducer)``. If `values` has already terminated, the streams complete now.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: The source of later values.
    public convenience init(initial: Value, then values: Signal<Value, Never>) {
        self.init(initial: initial, then: values.producer)
    }

    /// A composed property fed by `start`, which must deliver the first value synchronously (every property's
    /// producer does). The combinators are built on this.
    ///
    /// - Parameters:
    ///   - start: Starts the source, passing each of its events to the given sink.
    convenience init(composing start: (_ sink: @escaping (Signal<Value, Never>.Event) -> Void) -> Void) {
        let storage = PropertyStorage<Value>(nil)
        start(storage.receive)
        precondition(storage.hasValue, "A composed property's source must send its current value synchronously.")
        self.init(backing: .composed(storage))
    }

    /// The current (for composed properties: cached) value.
    public var value: Value {
        switch backing {
        case let .constant(value): return value
        case let .captured(property): return property.value
        case let .composed(storage): return storage.value
        }
    }

    /// The current value, then every change; completes with the (ultimate) source.
    public var producer: SignalProducer<Value, Never> {
        switch backing {
        case let .constant(value): return SignalProducer(value: value)
        case let .captured(property): return property.producer
        case let .composed(storage): return storage.producer
        }
    }

    /// Every change after observation; completes with the (ultimate) source. Already terminated for a constant.
    public var signal: Signal<Value, Never> {
        switch backing {
        case .constant: return Signal.empty
        case let .captured(property): return property.signal
        case let .composed(storage): return storage.signal
        }
    }
}
