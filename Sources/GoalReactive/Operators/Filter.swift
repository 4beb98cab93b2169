extension Signal {
    /// Forwards only the values for which `isIncluded` returns `true`.
    ///
    /// - Parameters:
    ///   - isIncluded: The predicate, called for each value.
    /// - Returns: A signal of the passing values; terminal events are forwarded.
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case let .value(value) = event, !isIncluded(value) { return }
                output.send(event)
            }
        }
    }

    /// Transforms every value and drops the `nil` results.
    ///
    /// - Parameters:
    ///   - transform: Applied to each value.
    /// - Returns: A signal of the non-nil results.
    public func compactMap<U>(_ transform: @escaping (Value) -> U?) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    if let mapped = transform(value) { output.send(value: mapped) }
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal {
    /// Drops `nil` values and unwraps the others.
    ///
    /// - Returns: A signal of the non-nil values.
    public func skipNil<U>() -> Signal<U, Error> where Value == U? {
        compactMap { $0 }
    }
}

extension SignalProducer {
    /// Forwards only the values for which `isIncluded` returns `true`.
    ///
    /// - Parameters:
    ///   - isIncluded: The predicate, called for each value.
    /// - Returns: A producer of the passing values.
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> SignalProducer<Value, Error> {
        liftEvents { $0.filter(isIncluded) }
    }

    /// Transforms every value and drops the `nil` results.
    ///
    /// - Parameters:
    ///   - transform: Applied to each value.
    /// - Returns: A producer of the non-nil results.
    public func compactMap<U>(_ transform: @escaping (Value) -> U?) -> SignalProducer<U, Error> {
        liftEvents { $0.compactMap(transform) }
    }

    /// Drops `nil` values and unwraps the others.
    ///
    /// - Returns: A producer of the non-nil values.
    public func skipNil<U>() -> SignalProducer<U, Error> where Value == U? {
        liftEvents { $0.skipNil() }
    }
}
