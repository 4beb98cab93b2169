extension Signal {
    /// Drops the first `count` values, then forwards everything.
    ///
    /// - Parameters:
    ///   - count: How many values to drop; must not be negative.
    /// - Returns: A signal without the first `count` values.
    public func skip(first count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "skip(first:) needs a non-negative count")
        guard count > 0 else { return self }
        return Signal { output, lifetime in
            var skipped = 0
            lifetime += self.observe { event in
                if case .value = event, skipped < count {
                    skipped += 1
                    return
                }
                output.send(event)
            }
        }
    }

    /// Drops values while `shouldContinue` returns `true`; from the first value failing it on, forwards
    /// everything.
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value until it first returns `false`.
    /// - Returns: A signal without the leading passing values.
    public func skip(while shouldContinue: @escaping (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            var isSkipping = true
            lifetime += self.observe { event in
                if isSkipping, case let .value(value) = event {
                    isSkipping = shouldContinue(value)
                    if isSkipping { return }
                }
                output.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// Drops the first `count` values, then forwards everything.
    ///
    /// - Parameters:
    ///   - count: How many values to drop; must not be negative.
    /// - Returns: A producer without the first `count` values.
    public func skip(first count: Int) -> SignalProducer<Value, Error> {
        liftEvents { $0.skip(first: count) }
    }

    /// Drops values while `shouldContinue` returns `true`, then forwards everything.
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value until it first returns `false`.
    /// - Returns: A producer without the leading passing values.
    public func skip(while shouldContinue: @escaping (Value) -> Bool) -> SignalProducer<Value, Error> {
        liftEvents { $0.skip(while: shouldContinue) }
    }
}
