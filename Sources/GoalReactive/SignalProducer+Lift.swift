/// # Writing operators
///
/// Write an operator **once, on `Signal`**, as a function that creates a new signal observing `self`:
///
/// ```swift
/// extension Signal {
///     public func map<U>(_ transform: @escaping (Value) -> U) -> Signal<U, Error> {
///         Signal<U, Error> { output, lifetime in
///             lifetime += self.observe { event in output.send(event.map(transform)) }
///         }
///     }
/// }
///
/// extension SignalProducer {
///     public func map<U>(_ transform: @escaping (Value) -> U) -> SignalProducer<U, Error> {
///         lift { $0.map(transform) }
///     }
/// }
/// ```
///
/// Rules for the `Signal` side:
/// - Tie the upstream observation to the new signal's `lifetime` (`lifetime += self.observe(...)`), so that
///   disposal or termination of the result detaches from upstream.
/// - Forward terminal events; the result's input drops anything after its own terminal event.
/// - Sending a terminal event early (e.g. `take(first:)`) ends the result's lifetime, which detaches from
///   upstream; for a lifted producer it also interrupts the upstream start.
/// - State shared between callbacks needs no extra lock if it is only touched from the upstream's
///   (serialized) callbacks; state touched from several upstreams (e.g. `combineLatest`) needs a ``Lock``-like
///   lock of its own.
extension SignalProducer {
    /// Applies a `Signal` operator to every signal this producer creates.
    ///
    /// For each start of the result: this producer is started, `transform` is applied to its signal, and the
    /// transformed signal feeds the result. Disposing the result's start, or the transformed signal
    /// terminating, interrupts the upstream start.
    ///
    /// - Parameters:
    ///   - transform: A `Signal` operator; called once per start.
    /// - Returns: A producer with the operator applied.
    public func lift<U, F>(
        _ transform: @escaping (Signal<Value, Error>) -> Signal<U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F> { observer, lifetime in
            self.startWithSignal { signal, interruptHandle in
                lifetime += interruptHandle
                lifetime += transform(signal).observe(observer)
            }
        }
    }

    /// Lifts a binary `Signal` operator to producers, starting the **argument** producer before this one
    /// (ReactiveSwift's default; `take(until:)` relies on it so that a synchronous trigger wins).
    ///
    /// Both produced signals are set up and observed before either start handler runs. Disposing the result
    /// interrupts both starts.
    ///
    /// - Parameters:
    ///   - transform: A binary `Signal` operator, e.g. `Signal.combineLatest(with:)` curried.
    /// - Returns: A function taking the argument producer.
    public func lift<U, F, V, G>(
        _ transform: @escaping (Signal<Value, Error>) -> (Signal<U, F>) -> Signal<V, G>
    ) -> (SignalProducer<U, F>) -> SignalProducer<V, G> {
        liftRight(transform)
    }

    /// Like ``lift(_:)-(Signal->(Signal->Signal))``: starts the argument producer first, then this one.
    public func liftRight<U, F, V, G>(
        _ transform: @escaping (Signal<Value, Error>) -> (Signal<U, F>) -> Signal<V, G>
    ) -> (SignalProducer<U, F>) -> SignalProducer<V, G> {
        { other in
            SignalProducer<V, G> { observer, lifetime in
                // The outer start handler runs last, so `self` (outer) starts after `other` (inner).
                self.startWithSignal { signal, interruptHandle in
                    lifetime += interruptHandle
                    other.startWithSignal { otherSignal, otherInterruptHandle in
                        lifetime += otherInterruptHandle
                        lifetime += transform(signal)(otherSignal).observe(observer)
                    }
                }
            }
        }
    }

    /// Like ``lift(_:)-(Signal->(Signal->Signal))``, but starts this producer first, then the argument
    /// (the order `combineLatest`, `zip` and `merge` use: arguments in order).
    public func liftLeft<U, F, V, G>(
        _ transform: @escaping (Signal<Value, Error>) -> (Signal<U, F>) -> Signal<V, G>
    ) -> (SignalProducer<U, F>) -> SignalProducer<V, G> {
        { other in
            SignalProducer<V, G> { observer, lifetime in
                other.startWithSignal { otherSignal, otherInterruptHandle in
                    lifetime += otherInterruptHandle
                    self.startWithSignal { signal, interruptHandle in
                        lifetime += interruptHandle
                        lifetime += transform(signal)(otherSignal).observe(observer)
                    }
                }
            }
        }
    }
}
