extension Signal {
    /// Runs `action` for every value; forwards the value if it succeeds, fails with its error otherwise.
    ///
    /// - Parameters:
    ///   - action: Validates a value.
    /// - Returns: A signal of the values that passed, failing at the first that did not.
    public func attempt(_ action: @escaping (Value) -> Result<(), Error>) -> Signal<Value, Error> {
        attemptMap { value in action(value).map { value } }
    }

    /// Transforms every value with `transform`; fails with its error when it returns `.failure`.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or fails.
    /// - Returns: A signal of the transformed values, failing at the first failure.
    public func attemptMap<U>(_ transform: @escaping (Value) -> Result<U, Error>) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    switch transform(value) {
                    case let .success(mapped): output.send(value: mapped)
                    case let .failure(error): output.send(error: error)
                    }
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == any Swift.Error {
    /// Runs the throwing `action` for every value; forwards the value, or fails with what was thrown.
    ///
    /// - Parameters:
    ///   - action: Validates a value by throwing.
    /// - Returns: A signal of the values that passed.
    public func attempt(_ action: @escaping (Value) throws -> Void) -> Signal<Value, any Swift.Error> {
        attemptMap { value in
            try action(value)
            return value
        }
    }

    /// Transforms every value with the throwing `transform`, failing with what was thrown.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or throws.
    /// - Returns: A signal of the transformed values.
    public func attemptMap<U>(_ transform: @escaping (Value) throws -> U) -> Signal<U, any Swift.Error> {
        attemptMap { value in Result { try transform(value) } }
    }
}

extension Signal where Error == Never {
    /// Runs the throwing `action` for every value; forwards the value, or fails with what was thrown.
    ///
    /// - Parameters:
    ///   - action: Validates a value by throwing.
    /// - Returns: A signal of the values that passed, which can now fail.
    public func attempt(_ action: @escaping (Value) throws -> Void) -> Signal<Value, any Swift.Error> {
        promoteError((any Swift.Error).self).attempt(action)
    }

    /// Transforms every value with the throwing `transform`, failing with what was thrown.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or throws.
    /// - Returns: A signal of the transformed values, which can now fail.
    public func attemptMap<U>(_ transform: @escaping (Value) throws -> U) -> Signal<U, any Swift.Error> {
        promoteError((any Swift.Error).self).attemptMap(transform)
    }
}

extension SignalProducer {
    /// Runs `action` for every value; forwards the value if it succeeds, fails with its error otherwise.
    ///
    /// - Parameters:
    ///   - action: Validates a value.
    /// - Returns: A producer of the values that passed.
    public func attempt(_ action: @escaping (Value) -> Result<(), Error>) -> SignalProducer<Value, Error> {
        liftEvents { $0.attempt(action) }
    }

    /// Transforms every value with `transform`; fails with its error when it returns `.failure`.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or fails.
    /// - Returns: A producer of the transformed values.
    public func attemptMap<U>(_ transform: @escaping (Value) -> Result<U, Error>) -> SignalProducer<U, Error> {
        liftEvents { $0.attemptMap(transform) }
    }
}

extension SignalProducer where Error == any Swift.Error {
    /// Runs the throwing `action` for every value; forwards the value, or fails with what was thrown.
    ///
    /// - Parameters:
    ///   - action: Validates a value by throwing.
    /// - Returns: A producer of the values that passed.
    public func attempt(_ action: @escaping (Value) throws -> Void) -> SignalProducer<Value, any Swift.Error> {
        liftEvents { $0.attempt(action) }
    }

    /// Transforms every value with the throwing `transform`, failing with what was thrown.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or throws.
    /// - Returns: A producer of the transformed values.
    public func attemptMap<U>(_ transform: @escaping (Value) throws -> U) -> SignalProducer<U, any Swift.Error> {
        liftEvents { $0.attemptMap(transform) }
    }
}

extension SignalProducer where Error == Never {
    /// Runs the throwing `action` for every value; forwards the value, or fails with what was thrown.
    ///
    /// - Parameters:
    ///   - action: Validates a value by throwing.
    /// - Returns: A producer of the values that passed, which can now fail.
    public func attempt(_ action: @escaping (Value) throws -> Void) -> SignalProducer<Value, any Swift.Error> {
        liftEvents { $0.attempt(action) }
    }

    /// Transforms every value with the throwing `transform`, failing with what was thrown.
    ///
    /// - Parameters:
    ///   - transform: Transforms a value, or throws.
    /// - Returns: A producer of the transformed values, which can now fail.
    public func attemptMap<U>(_ transform: @escaping (Value) throws -> U) -> SignalProducer<U, any Swift.Error> {
        liftEvents { $0.attemptMap(transform) }
    }
}
