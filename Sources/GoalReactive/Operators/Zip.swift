extension Signal {
    /// Pairs the values of `signals` by position: the nth array holds the nth value of every input.
    ///
    /// Values are buffered until every input has sent its nth value. Completes when all inputs completed, or
    /// as soon as a completed input has no buffered value left (no further array can be formed). A failure
    /// or interruption of any input is forwarded at once. An empty sequence gives an already-completed signal.
    ///
    /// Threading: the result is sent on the thread of the input that completed an array, serialized with a
    /// lock shared by the inputs.
    ///
    /// - Parameters:
    ///   - signals: The inputs.
    /// - Returns: A signal of arrays of same-position values.
    public static func zip<S: Sequence>(_ signals: S) -> Signal<[Value], Error>
    where S.Element == Signal<Value, Error> {
        let inputs = Array(signals)
        return Signal<[Value], Error> { output, lifetime in
            guard !inputs.isEmpty else { return output.sendCompleted() }
            let lock = AggregateLock()
            var buffers = [[Value]](repeating: [], count: inputs.count)
            var completed = [Bool](repeating: false, count: inputs.count)
            func isExhausted() -> Bool {
                completed.allSatisfy { $0 } || Swift.zip(completed, buffers).contains { $0 && $1.isEmpty }
            }
            for (index, input) in inputs.enumerated() {
                lifetime += input.observe { event in
                    lock.withLock {
                        switch event {
                        case let .value(value):
                            buffers[index].append(value)
                            guard buffers.allSatisfy({ !$0.isEmpty }) else { return }
                            let values = buffers.indices.map { buffers[$0].removeFirst() }
                            output.send(value: values)
                            if isExhausted() { output.sendCompleted() }
                        case let .failed(error): output.send(error: error)
                        case .completed:
                            completed[index] = true
                            if isExhausted() { output.sendCompleted() }
                        case .interrupted: output.sendInterrupted()
                        }
                    }
                }
            }
        }
    }

    /// Pairs the values of `self` and `other` by position; see ``zip(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A signal of `(self, other)` tuples.
    public func zip<U>(with other: Signal<U, Error>) -> Signal<(Value, U), Error> {
        Signal.zip(self, other)
    }

    /// Pairs the values of two signals by position; see ``zip(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: A signal of tuples.
    public static func zip<B>(_ a: Signal<Value, Error>, _ b: Signal<B, Error>) -> Signal<(Value, B), Error> {
        Signal<Any, Error>.zip([a.erased, b.erased]).map { ErasedTuple.tuple($0, as: Value.self, B.self) }
    }

    /// Pairs the values of three signals by position; see ``zip(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: A signal of tuples.
    public static func zip<B, C>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        Signal<Any, Error>.zip([a.erased, b.erased, c.erased]).map {
            ErasedTuple.tuple($0, as: Value.self, B.self, C.self)
        }
    }
}

extension SignalProducer {
    /// Pairs the values of `producers` by position; see ``Signal/zip(_:)-(S)``. The inputs are started in order.
    ///
    /// - Parameters:
    ///   - producers: The inputs.
    /// - Returns: A producer of arrays of same-position values.
    public static func zip<S: Sequence>(_ producers: S) -> SignalProducer<[Value], Error>
    where S.Element == SignalProducer<Value, Error> {
        let inputs = Array(producers)
        guard !inputs.isEmpty else { return .empty }
        return startingAll(inputs) { Signal.zip($0) }
    }

    /// Pairs the values of `self` and `other` by position (started in that order).
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A producer of `(self, other)` tuples.
    public func zip<U>(with other: SignalProducer<U, Error>) -> SignalProducer<(Value, U), Error> {
        SignalProducer.zip(self, other)
    }

    /// Pairs the values of `self` and the signal `other` by position.
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A producer of `(self, other)` tuples.
    public func zip<U>(with other: Signal<U, Error>) -> SignalProducer<(Value, U), Error> {
        zip(with: SignalProducer<U, Error>(other))
    }

    /// Pairs the values of two producers by position, started in argument order.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: A producer of tuples.
    public static func zip<B>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer<(Value, B), Error> {
        SignalProducer<Any, Error>.zip([a.erased, b.erased]).map { ErasedTuple.tuple($0, as: Value.self, B.self) }
    }

    /// Pairs the values of three producers by position, started in argument order.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: A producer of tuples.
    public static func zip<B, C>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>
    ) -> SignalProducer<(Value, B, C), Error> {
        SignalProducer<Any, Error>.zip([a.erased, b.erased, c.erased])
            .map { ErasedTuple.tuple($0, as: Value.self, B.self, C.self) }
    }
}
