extension Signal {
    /// Accumulates the values and sends every partial result (the first is `next(initialResult, first)`).
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator (not sent by itself).
    ///   - next: Combines the accumulator with a value.
    /// - Returns: A signal of the partial results.
    public func scan<U>(_ initialResult: U, _ next: @escaping (U, Value) -> U) -> Signal<U, Error> {
        scan(into: initialResult) { result, value in result = next(result, value) }
    }

    /// Accumulates the values in place and sends every partial result.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator (not sent by itself).
    ///   - nextPartialResult: Updates the accumulator with a value.
    /// - Returns: A signal of the partial results.
    public func scan<U>(
        into initialResult: U,
        _ nextPartialResult: @escaping (inout U, Value) -> Void
    ) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            var accumulator = initialResult
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    nextPartialResult(&accumulator, value)
                    output.send(value: accumulator)
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Accumulates the values and sends only the final result, on completion (`initialResult` if there
    /// were no values). Nothing is sent on failure or interruption.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator.
    ///   - next: Combines the accumulator with a value.
    /// - Returns: A signal of one value, then completion.
    public func reduce<U>(_ initialResult: U, _ next: @escaping (U, Value) -> U) -> Signal<U, Error> {
        reduce(into: initialResult) { result, value in result = next(result, value) }
    }

    /// Accumulates the values in place and sends only the final result, on completion.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator.
    ///   - nextPartialResult: Updates the accumulator with a value.
    /// - Returns: A signal of one value, then completion.
    public func reduce<U>(
        into initialResult: U,
        _ nextPartialResult: @escaping (inout U, Value) -> Void
    ) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            var accumulator = initialResult
            lifetime += self.observe { event in
                switch event {
                case let .value(value): nextPartialResult(&accumulator, value)
                case let .failed(error): output.send(error: error)
                case .completed:
                    output.send(value: accumulator)
                    output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// Accumulates the values and sends every partial result.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator (not sent by itself).
    ///   - next: Combines the accumulator with a value.
    /// - Returns: A producer of the partial results; each start begins from `initialResult`.
    public func scan<U>(_ initialResult: U, _ next: @escaping (U, Value) -> U) -> SignalProducer<U, Error> {
        liftEvents { $0.scan(initialResult, next) }
    }

    /// Accumulates the values in place and sends every partial result.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator (not sent by itself).
    ///   - nextPartialResult: Updates the accumulator with a value.
    /// - Returns: A producer of the partial results.
    public func scan<U>(
        into initialResult: U,
        _ nextPartialResult: @escaping (inout U, Value) -> Void
    ) -> SignalProducer<U, Error> {
        liftEvents { $0.scan(into: initialResult, nextPartialResult) }
    }

    /// Accumulates the values and sends only the final result, on completion.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator.
    ///   - next: Combines the accumulator with a value.
    /// - Returns: A producer of one value, then completion.
    public func reduce<U>(_ initialResult: U, _ next: @escaping (U, Value) -> U) -> SignalProducer<U, Error> {
        liftEvents { $0.reduce(initialResult, next) }
    }

    /// Accumulates the values in place and sends only the final result, on completion.
    ///
    /// - Parameters:
    ///   - initialResult: The starting accumulator.
    ///   - nextPartialResult: Updates the accumulator with a value.
    /// - Returns: A producer of one value, then completion.
    public func reduce<U>(
        into initialResult: U,
        _ nextPartialResult: @escaping (inout U, Value) -> Void
    ) -> SignalProducer<U, Error> {
        liftEvents { $0.reduce(into: initialResult, nextPartialResult) }
    }
}
