extension SignalProducer {
    /// Waits for `self` to complete (ignoring its values), then starts `replacement` and forwards its events.
    ///
    /// Failure and interruption of `self` are forwarded; `replacement` is then never started.
    ///
    /// - Parameters:
    ///   - replacement: Started after `self` completes.
    /// - Returns: A producer of `replacement`'s events.
    public func then<U>(_ replacement: SignalProducer<U, Error>) -> SignalProducer<U, Error> {
        then(replacing: replacement)
    }

    private func then<U>(replacing replacement: SignalProducer<U, Error>) -> SignalProducer<U, Error> {
        SignalProducer<U, Error> { observer, lifetime in
            self.startWithSignal { signal, interruptHandle in
                lifetime += interruptHandle
                lifetime += signal.observe { event in
                    switch event {
                    case .value: break
                    case let .failed(error): observer.send(error: error)
                    case .completed: lifetime += replacement.start(observer)
                    case .interrupted: observer.sendInterrupted()
                    }
                }
            }
        }
    }

    /// Waits for `self` to complete, then starts the replacement that cannot fail.
    ///
    /// - Parameters:
    ///   - replacement: Started after `self` completes.
    /// - Returns: A producer of `replacement`'s events.
    public func then<U>(_ replacement: SignalProducer<U, Never>) -> SignalProducer<U, Error> {
        then(replacing: replacement.promoteError(Error.self))
    }

    /// Forwards every event of `self`, then, once it completed, every event of `next`.
    ///
    /// - Parameters:
    ///   - next: Started after `self` completes.
    /// - Returns: A producer of both producers' values, in sequence.
    public func concat(_ next: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer<SignalProducer<Value, Error>, Error>([self, next]).flatten(.concat)
    }

    /// Forwards every event of `self`, then `value`, then completes.
    ///
    /// - Parameters:
    ///   - value: Sent after `self` completes.
    /// - Returns: A producer ending with `value`.
    public func concat(value: Value) -> SignalProducer<Value, Error> {
        concat(SignalProducer(value: value))
    }

    /// Forwards every event of `previous`, then, once it completed, every event of `self`.
    ///
    /// - Parameters:
    ///   - previous: Started first.
    /// - Returns: A producer of both producers' values, in sequence.
    public func prefix(_ previous: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        previous.concat(self)
    }

    /// Sends `value`, then forwards every event of `self`.
    ///
    /// - Parameters:
    ///   - value: Sent first.
    /// - Returns: A producer starting with `value`.
    public func prefix(value: Value) -> SignalProducer<Value, Error> {
        prefix(SignalProducer(value: value))
    }

    /// Restarts `self` after a failure, up to `count` times; the failure of the last attempt is forwarded.
    ///
    /// Each retry runs the start handler (the side effects) again.
    ///
    /// - Parameters:
    ///   - count: The number of retries; must not be negative (`0` means no retry).
    /// - Returns: A producer that retries on failure.
    public func retry(upTo count: Int) -> SignalProducer<Value, Error> {
        precondition(count >= 0, "retry(upTo:) needs a non-negative count")
        guard count > 0 else { return self }
        return flatMapError { _ in self.retry(upTo: count - 1) }
    }

    /// Restarts `self` after `count` repetitions; completes after the last one.
    ///
    /// - Parameters:
    ///   - count: The number of runs in total; must be positive.
    /// - Returns: A producer running `self` `count` times in sequence.
    public func `repeat`(_ count: Int) -> SignalProducer<Value, Error> {
        precondition(count > 0, "repeat needs a positive count")
        guard count > 1 else { return self }
        return SignalProducer<SignalProducer<Value, Error>, Error>(repeatElement(self, count: count)).flatten(.concat)
    }
}

extension SignalProducer where Error == Never {
    /// Waits for `self` to complete, then starts `replacement`, which may fail.
    ///
    /// - Parameters:
    ///   - replacement: Started after `self` completes.
    /// - Returns: A producer of `replacement`'s events.
    public func then<U, F>(_ replacement: SignalProducer<U, F>) -> SignalProducer<U, F> {
        promoteError(F.self).then(replacing: replacement)
    }

    /// Waits for `self` to complete, then starts `replacement` (nothing can fail).
    ///
    /// - Parameters:
    ///   - replacement: Started after `self` completes.
    /// - Returns: A producer of `replacement`'s events.
    public func then<U>(_ replacement: SignalProducer<U, Never>) -> SignalProducer<U, Never> {
        then(replacing: replacement)
    }
}
