extension Signal {
    /// Combines the latest values of `signals` into arrays.
    ///
    /// Nothing is sent until **every** input has sent a value; afterwards every input value sends the array
    /// of the latest values (in input order). Completes when **all** inputs completed (an input that
    /// completes without a value means nothing is ever sent); a failure or interruption of any input is
    /// forwarded at once. An empty sequence gives an already-completed signal.
    ///
    /// Threading: the result is sent on the thread of the input that triggered it, serialized with a lock
    /// shared by the inputs.
    ///
    /// - Parameters:
    ///   - signals: The inputs.
    /// - Returns: A signal of arrays of the latest values.
    public static func combineLatest<S: Sequence>(_ signals: S) -> Signal<[Value], Error>
    where S.Element == Signal<Value, Error> {
        let inputs = Array(signals)
        return Signal<[Value], Error> { output, lifetime in
            guard !inputs.isEmpty else { return output.sendCompleted() }
            let lock = AggregateLock()
            var latest = [Value?](repeating: nil, count: inputs.count)
            var missing = inputs.count
            var running = inputs.count
            for (index, input) in inputs.enumerated() {
                lifetime += input.observe { event in
                    lock.withLock {
                        switch event {
                        case let .value(value):
                            if latest[index] == nil { missing -= 1 }
                            latest[index] = value
                            if missing == 0 { output.send(value: latest.map { $0! }) }
                        case let .failed(error): output.send(error: error)
                        case .completed:
                            running -= 1
                            if running == 0 { output.sendCompleted() }
                        case .interrupted: output.sendInterrupted()
                        }
                    }
                }
            }
        }
    }

    /// Combines the latest values of `self` and `other`; see ``combineLatest(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A signal of `(self, other)` tuples of the latest values.
    public func combineLatest<U>(with other: Signal<U, Error>) -> Signal<(Value, U), Error> {
        Signal.combineLatest(self, other)
    }

    /// Combines the latest values of two signals; see ``combineLatest(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: A signal of tuples of the latest values.
    public static func combineLatest<B>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        Signal<Any, Error>.combineLatest([a.erased, b.erased]).map { ErasedTuple.tuple($0, as: Value.self, B.self) }
    }

    /// Combines the latest values of three signals; see ``combineLatest(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: A signal of tuples of the latest values.
    public static func combineLatest<B, C>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        Signal<Any, Error>.combineLatest([a.erased, b.erased, c.erased])
            .map { ErasedTuple.tuple($0, as: Value.self, B.self, C.self) }
    }

    /// Combines the latest values of four signals; see ``combineLatest(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    ///   - d: The fourth input.
    /// - Returns: A signal of tuples of the latest values.
    public static func combineLatest<B, C, D>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>,
        _ d: Signal<D, Error>
    ) -> Signal<(Value, B, C, D), Error> {
        Signal<Any, Error>.combineLatest([a.erased, b.erased, c.erased, d.erased])
            .map { ErasedTuple.tuple($0, as: Value.self, B.self, C.self, D.self) }
    }
}

extension SignalProducer {
    /// Combines the latest values of `producers` into arrays; see ``Signal/combineLatest(_:)-(S)``.
    ///
    /// On each start the inputs are started in order. An empty sequence gives a producer that completes at once.
    ///
    /// - Parameters:
    ///   - producers: The inputs.
    /// - Returns: A producer of arrays of the latest values.
    public static func combineLatest<S: Sequence>(_ producers: S) -> SignalProducer<[Value], Error>
    where S.Element == SignalProducer<Value, Error> {
        let inputs = Array(producers)
        guard !inputs.isEmpty else { return .empty }
        return startingAll(inputs) { Signal.combineLatest($0) }
    }

    /// Combines the latest values of `self` and `other` (started in that order).
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A producer of `(self, other)` tuples of the latest values.
    public func combineLatest<U>(with other: SignalProducer<U, Error>) -> SignalProducer<(Value, U), Error> {
        SignalProducer.combineLatest(self, other)
    }

    /// Combines the latest values of `self` and the signal `other`.
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A producer of `(self, other)` tuples of the latest values.
    public func combineLatest<U>(with other: Signal<U, Error>) -> SignalProducer<(Value, U), Error> {
        combineLatest(with: SignalProducer<U, Error>(other))
    }

    /// Combines the latest values of two producers, started in argument order.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: A producer of tuples of the latest values.
    public static func combineLatest<B>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer<(Value, B), Error> {
        SignalProducer<Any, Error>.combineLatest([a.erased, b.erased]).map {
            ErasedTuple.tuple($0, as: Value.self, B.self)
        }
    }

    /// Combines the latest values of three producers, started in argument order.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: A producer of tuples of the latest values.
    public static func combineLatest<B, C>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>
    ) -> SignalProducer<(Value, B, C), Error> {
        SignalProducer<Any, Error>.combineLatest([a.erased, b.erased, c.erased])
            .map { ErasedTuple.tuple($0, as: Value.self, B.self, C.self) }
    }

    /// Combines the latest values of four producers, started in argument order.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    ///   - d: The fourth input.
    /// - Returns: A producer of tuples of the latest values.
    public static func combineLatest<B, C, D>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>,
        _ d: SignalProducer<D, Error>
    ) -> SignalProducer<(Value, B, C, D), Error> {
        SignalProducer<Any, Error>.combineLatest([a.erased, b.erased, c.erased, d.erased])
            .map { ErasedTuple.tuple($0, as: Value.self, B.self, C.self, D.self) }
    }
}
