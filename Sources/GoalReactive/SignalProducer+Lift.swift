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
        lift(interruption: .immediate, transform)
    }

    /// Like ``lift(_:)-(Signal->Signal)``, for the operators ReactiveSwift builds from event transformations
    /// (`map`, `filter`, `take(first:)`, `scan`, `materialize`, …): disposing a start interrupts it the way
    /// `self` would, so after an asynchronous operator `.interrupted` still arrives on its scheduler.
    func liftEvents<U, F>(_ transform: @escaping (Signal<Value, Error>) -> Signal<U, F>) -> SignalProducer<U, F> {
        lift(interruption: interruption.throughEventTransform, transform)
    }

    /// Like ``lift(_:)-(Signal->Signal)``, for an operator that delivers its events on `scheduler`: disposing a
    /// start interrupts the upstream start at once, drops the events queued on `scheduler`, and delivers
    /// `.interrupted` through `scheduler`.
    func liftEvents<U, F>(
        interruptingOn scheduler: any Scheduler,
        _ transform: @escaping (Signal<Value, Error>) -> Signal<U, F>
    ) -> SignalProducer<U, F> {
        lift(interruption: .scheduled(on: scheduler), transform)
    }

    private func lift<U, F>(
        interruption: StartInterruption,
        _ transform: @escaping (Signal<Value, Error>) -> Signal<U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>(interruption: interruption) { observer, lifetime in
            self.start(transformedBy: transform, into: observer, during: lifetime, interruption: interruption)
        }
    }

    /// Starts `self`, applies `transform` to the produced signal and feeds `observer` from it, for the start
    /// handler of a producer interrupted as `interruption` says.
    ///
    /// Holding the upstream's interrupt handle in `lifetime` keeps the upstream start alive until this one ends,
    /// and ends it then. The observation ends with `lifetime` too, unless the upstream's interruption must still
    /// arrive through it (``StartInterruption/forwarded(from:)``).
    func start<U, F>(
        transformedBy transform: (Signal<Value, Error>) -> Signal<U, F>,
        into observer: Signal<U, F>.Observer,
        during lifetime: Lifetime,
        interruption: StartInterruption
    ) {
        startWithSignal { signal, interruptHandle in
            lifetime += interruptHandle
            let observation = transform(signal).observe(observer)
            if !interruption.awaitsUpstreamInterruption { lifetime += observation }
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
