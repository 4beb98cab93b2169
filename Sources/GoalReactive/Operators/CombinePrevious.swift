extension Signal {
    /// Pairs every value with the value before it, starting with `initial` as the first "previous".
    ///
    /// - Parameters:
    ///   - initial: The "previous" value paired with the first value.
    /// - Returns: A signal of `(previous, current)` tuples, one per value.
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Error> {
        combinePrevious(initial: initial)
    }

    /// Pairs every value with the value before it; the first value only becomes the first "previous".
    ///
    /// - Returns: A signal of `(previous, current)` tuples, one per value after the first.
    public func combinePrevious() -> Signal<(Value, Value), Error> {
        combinePrevious(initial: nil)
    }

    private func combinePrevious(initial: Value?) -> Signal<(Value, Value), Error> {
        Signal<(Value, Value), Error> { output, lifetime in
            var previous = initial
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    if let last = previous { output.send(value: (last, value)) }
                    previous = value
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// Pairs every value with the value before it, starting with `initial` as the first "previous".
    ///
    /// - Parameters:
    ///   - initial: The "previous" value paired with the first value.
    /// - Returns: A producer of `(previous, current)` tuples.
    public func combinePrevious(_ initial: Value) -> SignalProducer<(Value, Value), Error> {
        liftEvents { $0.combinePrevious(initial) }
    }

    /// Pairs every value with the value before it; the first value is swallowed.
    ///
    /// - Returns: A producer of `(previous, current)` tuples.
    public func combinePrevious() -> SignalProducer<(Value, Value), Error> {
        liftEvents { $0.combinePrevious() }
    }
}
