extension Signal where Value: SignalProducerConvertible, Value.Error == Error {
    /// Flattens a signal of streams into one signal of their values, using `strategy`.
    ///
    /// See ``FlattenStrategy`` for the rules. Interruption or failure of `self` disposes the inner streams;
    /// completion of `self` does not (the result completes once the inners it forwards have completed).
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A signal of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        Flatten.run(map(\.producer), strategy)
    }
}

extension Signal where Value: SignalProducerConvertible, Value.Error == Never {
    /// Flattens a signal of streams that cannot fail; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A signal of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Error> {
        Flatten.run(map { $0.producer.promoteError(Error.self) }, strategy)
    }
}

extension Signal where Error == Never, Value: SignalProducerConvertible {
    /// Flattens a signal that cannot fail of streams that can; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A signal of the inner streams' values, failing when an inner fails.
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Value.Error> {
        Flatten.run(promoteError(Value.Error.self).map(\.producer), strategy)
    }
}

extension Signal where Error == Never, Value: SignalProducerConvertible, Value.Error == Never {
    /// Flattens a signal of streams where nothing can fail; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A signal of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Never> {
        Flatten.run(map(\.producer), strategy)
    }
}

extension Signal {
    /// Maps every value to a stream and flattens the streams with `strategy`; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A signal of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Error {
        map(transform).flatten(strategy)
    }

    /// Maps every value to a stream that cannot fail and flattens the streams with `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A signal of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Error> where Inner.Error == Never {
        map(transform).flatten(strategy)
    }

    /// Recovers from a failure by switching to the producer `transform` returns for the error.
    ///
    /// Values, completion and interruption of `self` are forwarded; after a failure the replacement's events
    /// are forwarded (it is interrupted if the result is disposed).
    ///
    /// - Parameters:
    ///   - transform: Creates the replacement for the error.
    /// - Returns: A signal that continues with the replacement instead of failing.
    public func flatMapError<F>(_ transform: @escaping (Error) -> SignalProducer<Value, F>) -> Signal<Value, F> {
        Signal<Value, F> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value): output.send(value: value)
                case let .failed(error):
                    transform(error).startWithSignal { signal, interruptHandle in
                        lifetime += interruptHandle
                        lifetime += signal.observe(output)
                    }
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == Never {
    /// Maps every value to a stream that can fail and flattens the streams with `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A signal of the inner streams' values, failing when an inner fails.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Inner.Error> {
        map(transform).flatten(strategy)
    }

    /// Maps every value to a stream and flattens the streams with `strategy` (nothing can fail).
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A signal of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> Signal<Inner.Value, Never> where Inner.Error == Never {
        map(transform).flatten(strategy)
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Value.Error == Error {
    /// Flattens a producer of streams into one producer of their values, using `strategy`.
    ///
    /// See ``FlattenStrategy``. Disposing a start interrupts the outer start and every inner start.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A producer of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        lift { $0.flatten(strategy) }
    }
}

extension SignalProducer where Value: SignalProducerConvertible, Value.Error == Never {
    /// Flattens a producer of streams that cannot fail; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A producer of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Error> {
        lift { $0.flatten(strategy) }
    }
}

extension SignalProducer where Error == Never, Value: SignalProducerConvertible {
    /// Flattens a producer that cannot fail of streams that can; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A producer of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Value.Error> {
        lift { $0.flatten(strategy) }
    }
}

extension SignalProducer where Error == Never, Value: SignalProducerConvertible, Value.Error == Never {
    /// Flattens a producer of streams where nothing can fail; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    /// - Returns: A producer of the inner streams' values.
    public func flatten(_ strategy: FlattenStrategy) -> SignalProducer<Value.Value, Never> {
        lift { $0.flatten(strategy) }
    }
}
