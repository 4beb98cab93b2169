extension Signal {
    /// Transforms every value with `transform`.
    ///
    /// - Parameters:
    ///   - transform: Applied to each value, on the delivering thread.
    /// - Returns: A signal of the transformed values; terminal events are forwarded.
    public func map<U>(_ transform: @escaping (Value) -> U) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { event in output.send(event.map(transform)) }
        }
    }

    /// Replaces every value with the constant `value`.
    ///
    /// - Parameters:
    ///   - value: Sent in place of each value.
    /// - Returns: A signal sending `value` once per value of `self`.
    public func map<U>(value: U) -> Signal<U, Error> {
        map { _ in value }
    }

    /// Extracts the value at `keyPath` from every value.
    ///
    /// - Parameters:
    ///   - keyPath: The key path to read.
    /// - Returns: A signal of the extracted values.
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> Signal<U, Error> {
        map { $0[keyPath: keyPath] }
    }

    /// Transforms the error of a failure; values and other terminal events pass through.
    ///
    /// - Parameters:
    ///   - transform: Applied to the error.
    /// - Returns: A signal failing with the transformed error.
    public func mapError<F>(_ transform: @escaping (Error) -> F) -> Signal<Value, F> {
        Signal<Value, F> { output, lifetime in
            lifetime += self.observe { event in output.send(event.mapError(transform)) }
        }
    }

    /// Drops every value, forwarding only the terminal event.
    ///
    /// Not part of ReactiveSwift (a common extension); the result's `Value` is `Never`, so it composes with
    /// `then(_:)`-style sequencing.
    ///
    /// - Returns: A signal that sends no values and terminates like `self`.
    public func ignoreValues() -> Signal<Never, Error> {
        Signal<Never, Error> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case .value: break
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == Never {
    /// Changes the error type of a signal that cannot fail.
    ///
    /// - Parameters:
    ///   - _: The new error type.
    /// - Returns: The same events, typed with error `F`.
    public func promoteError<F>(_: F.Type = F.self) -> Signal<Value, F> {
        Signal<Value, F> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .value(value): output.send(value: value)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Value == Never {
    /// Changes the value type of a signal that cannot send values.
    ///
    /// - Parameters:
    ///   - _: The new value type.
    /// - Returns: The same terminal event, typed with value `U`.
    public func promoteValue<U>(_: U.Type = U.self) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// Transforms every value with `transform`; see ``Signal/map(_:)-(Value->U)``.
    ///
    /// - Parameters:
    ///   - transform: Applied to each value.
    /// - Returns: A producer of the transformed values.
    public func map<U>(_ transform: @escaping (Value) -> U) -> SignalProducer<U, Error> {
        liftEvents { $0.map(transform) }
    }

    /// Replaces every value with the constant `value`.
    ///
    /// - Parameters:
    ///   - value: Sent in place of each value.
    /// - Returns: A producer sending `value` once per value of `self`.
    public func map<U>(value: U) -> SignalProducer<U, Error> {
        lift { $0.map(value: value) }
    }

    /// Extracts the value at `keyPath` from every value.
    ///
    /// - Parameters:
    ///   - keyPath: The key path to read.
    /// - Returns: A producer of the extracted values.
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> SignalProducer<U, Error> {
        liftEvents { $0.map(keyPath) }
    }

    /// Transforms the error of a failure.
    ///
    /// - Parameters:
    ///   - transform: Applied to the error.
    /// - Returns: A producer failing with the transformed error.
    public func mapError<F>(_ transform: @escaping (Error) -> F) -> SignalProducer<Value, F> {
        liftEvents { $0.mapError(transform) }
    }

    /// Drops every value, forwarding only the terminal event (not part of ReactiveSwift).
    ///
    /// - Returns: A producer that sends no values and terminates like `self`.
    public func ignoreValues() -> SignalProducer<Never, Error> {
        liftEvents { $0.ignoreValues() }
    }
}

extension SignalProducer where Error == Never {
    /// Changes the error type of a producer that cannot fail.
    ///
    /// - Parameters:
    ///   - _: The new error type.
    /// - Returns: The same events, typed with error `F`.
    public func promoteError<F>(_: F.Type = F.self) -> SignalProducer<Value, F> {
        liftEvents { $0.promoteError(F.self) }
    }
}

extension SignalProducer where Value == Never {
    /// Changes the value type of a producer that cannot send values.
    ///
    /// - Parameters:
    ///   - _: The new value type.
    /// - Returns: The same terminal event, typed with value `U`.
    public func promoteValue<U>(_: U.Type = U.self) -> SignalProducer<U, Error> {
        liftEvents { $0.promoteValue(U.self) }
    }
}
