extension Signal {
    /// Forwards the first `count` values, then completes.
    ///
    /// Completion is sent synchronously right after the `count`-th value, and the upstream is detached (for a
    /// producer: interrupted). With `count == 0` the result has already completed, so observers receive
    /// `.interrupted` (the late-observer rule), as in ReactiveSwift.
    ///
    /// - Parameters:
    ///   - count: How many values to forward; must not be negative.
    /// - Returns: A signal of at most `count` values.
    public func take(first count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "take(first:) needs a non-negative count")
        return Signal { output, lifetime in
            guard count > 0 else { return output.sendCompleted() }
            var taken = 0
            lifetime += self.observe { event in
                guard case let .value(value) = event else { return output.send(event) }
                taken += 1
                guard taken <= count else { return }
                output.send(value: value)
                if taken == count { output.sendCompleted() }
            }
        }
    }

    /// Forwards only the last `count` values, all at once when `self` completes.
    ///
    /// - Parameters:
    ///   - count: How many trailing values to keep; must not be negative.
    /// - Returns: A signal sending the kept values, then completing; failure and interruption drop them.
    public func take(last count: Int) -> Signal<Value, Error> {
        precondition(count >= 0, "take(last:) needs a non-negative count")
        return Signal { output, lifetime in
            var buffer: [Value] = []
            buffer.reserveCapacity(count)
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    guard count > 0 else { return }
                    if buffer.count == count { buffer.removeFirst() }
                    buffer.append(value)
                case .completed:
                    for value in buffer { output.send(value: value) }
                    output.sendCompleted()
                default:
                    output.send(event)
                }
            }
        }
    }

    /// Forwards values while `shouldContinue` returns `true`; completes, without forwarding it, at the first
    /// value that fails the predicate.
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value.
    /// - Returns: A signal of the leading passing values.
    public func take(while shouldContinue: @escaping (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                if case let .value(value) = event, !shouldContinue(value) {
                    output.sendCompleted()
                } else {
                    output.send(event)
                }
            }
        }
    }

    /// Forwards values until `shouldContinue` returns `false`; that value **is** forwarded, then the result
    /// completes.
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value.
    /// - Returns: A signal of the values up to and including the first failing one.
    public func take(until shouldContinue: @escaping (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                output.send(event)
                if case let .value(value) = event, !shouldContinue(value) { output.sendCompleted() }
            }
        }
    }
}

extension SignalProducer {
    /// Forwards the first `count` values, then completes and interrupts the upstream start.
    ///
    /// With `count == 0` every start yields `.interrupted` and the upstream is not started, as in ReactiveSwift.
    ///
    /// - Parameters:
    ///   - count: How many values to forward; must not be negative.
    /// - Returns: A producer of at most `count` values.
    public func take(first count: Int) -> SignalProducer<Value, Error> {
        liftEvents { $0.take(first: count) }
    }

    /// Forwards only the last `count` values, when `self` completes.
    ///
    /// - Parameters:
    ///   - count: How many trailing values to keep; must not be negative.
    /// - Returns: A producer sending the kept values, then completing.
    public func take(last count: Int) -> SignalProducer<Value, Error> {
        liftEvents { $0.take(last: count) }
    }

    /// Forwards values while `shouldContinue` returns `true`, then completes (without the failing value).
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value.
    /// - Returns: A producer of the leading passing values.
    public func take(while shouldContinue: @escaping (Value) -> Bool) -> SignalProducer<Value, Error> {
        liftEvents { $0.take(while: shouldContinue) }
    }

    /// Forwards values until `shouldContinue` returns `false`, including that value, then completes.
    ///
    /// - Parameters:
    ///   - shouldContinue: The predicate, called for each value.
    /// - Returns: A producer of the values up to and including the first failing one.
    public func take(until shouldContinue: @escaping (Value) -> Bool) -> SignalProducer<Value, Error> {
        liftEvents { $0.take(until: shouldContinue) }
    }
}
