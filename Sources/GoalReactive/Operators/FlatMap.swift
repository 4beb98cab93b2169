extension SignalProducer {
    /// Maps every value to a stream and flattens the streams with `strategy`; see ``flatten(_:)``.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A producer of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Error {
        lift { $0.flatMap(strategy, transform) }
    }

    /// Maps every value to a stream that cannot fail and flattens the streams with `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A producer of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Error> where Inner.Error == Never {
        lift { $0.flatMap(strategy, transform) }
    }

    /// Recovers from a failure by switching to the producer `transform` returns for the error.
    ///
    /// - Parameters:
    ///   - transform: Creates the replacement for the error; called once per failed start.
    /// - Returns: A producer that continues with the replacement instead of failing.
    public func flatMapError<F>(
        _ transform: @escaping (Error) -> SignalProducer<Value, F>
    ) -> SignalProducer<Value, F> {
        lift { $0.flatMapError(transform) }
    }
}

extension SignalProducer where Error == Never {
    /// Maps every value to a stream that can fail and flattens the streams with `strategy`.
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A producer of the inner streams' values, failing when an inner fails.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Inner.Error> {
        lift { $0.flatMap(strategy, transform) }
    }

    /// Maps every value to a stream and flattens the streams with `strategy` (nothing can fail).
    ///
    /// - Parameters:
    ///   - strategy: How to combine the inner streams.
    ///   - transform: Creates the inner stream for a value.
    /// - Returns: A producer of the inner streams' values.
    public func flatMap<Inner: SignalProducerConvertible>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping (Value) -> Inner
    ) -> SignalProducer<Inner.Value, Never> where Inner.Error == Never {
        lift { $0.flatMap(strategy, transform) }
    }
}
