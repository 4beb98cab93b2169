extension Signal {
    /// Turns every event into a value.
    ///
    /// After a materialized `completed` or `failed` the result completes; after a materialized `interrupted`
    /// the result is interrupted.
    ///
    /// - Returns: A signal of the events of `self`, which cannot fail.
    public func materialize() -> Signal<Event, Never> {
        Signal<Event, Never> { output, lifetime in
            lifetime += self.observe { event in
                output.send(value: event)
                switch event {
                case .value: break
                case .failed, .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Turns values into `.success` and a failure into a `.failure` value followed by completion.
    ///
    /// - Returns: A signal of results, which cannot fail.
    public func materializeResults() -> Signal<Result<Value, Error>, Never> {
        Signal<Result<Value, Error>, Never> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value): output.send(value: .success(value))
                case let .failed(error):
                    output.send(value: .failure(error))
                    output.sendCompleted()
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == Never {
    /// The inverse of ``materialize()``: sends each event value as the event it describes.
    ///
    /// - Returns: A signal that terminates at the first terminal event value (or when `self` terminates).
    public func dematerialize<U, F>() -> Signal<U, F> where Value == Signal<U, F>.Event {
        Signal<U, F> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(inner): output.send(inner)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// The inverse of ``materializeResults()``: `.success` becomes a value, `.failure` a failure.
    ///
    /// - Returns: A signal that fails at the first `.failure`.
    public func dematerializeResults<U, F>() -> Signal<U, F> where Value == Result<U, F> {
        Signal<U, F> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(.success(value)): output.send(value: value)
                case let .value(.failure(error)): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// Turns every event into a value; see ``Signal/materialize()``.
    ///
    /// - Returns: A producer of the events of `self`.
    public func materialize() -> SignalProducer<Signal<Value, Error>.Event, Never> {
        liftEvents { $0.materialize() }
    }

    /// Turns values into `.success` and a failure into a `.failure` value followed by completion.
    ///
    /// - Returns: A producer of results.
    public func materializeResults() -> SignalProducer<Result<Value, Error>, Never> {
        liftEvents { $0.materializeResults() }
    }
}

extension SignalProducer where Error == Never {
    /// The inverse of ``materialize()``: sends each event value as the event it describes.
    ///
    /// - Returns: A producer that terminates at the first terminal event value.
    public func dematerialize<U, F>() -> SignalProducer<U, F> where Value == Signal<U, F>.Event {
        liftEvents { $0.dematerialize() }
    }

    /// The inverse of ``materializeResults()``.
    ///
    /// - Returns: A producer that fails at the first `.failure`.
    public func dematerializeResults<U, F>() -> SignalProducer<U, F> where Value == Result<U, F> {
        liftEvents { $0.dematerializeResults() }
    }
}
