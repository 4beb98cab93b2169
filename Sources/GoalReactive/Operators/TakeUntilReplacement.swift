extension Signal {
    /// Forwards `self` (its values, failure and interruption; not its completion) until `replacement` sends any
    /// event; from then on forwards `replacement` only, that first event included. ReactiveSwift's
    /// `take(untilReplacement:)`.
    ///
    /// - Parameters:
    ///   - replacement: The signal that takes over on its first event.
    /// - Returns: A signal forwarding `self`, then `replacement`.
    public func take(untilReplacement replacement: Signal<Value, Error>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let original = SerialDisposable()
            lifetime += original
            original.inner = self.observe { event in
                if case .completed = event { return }  // the result waits for its replacement
                output.send(event)
            }
            lifetime += replacement.observe { event in
                original.dispose()
                output.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// Forwards `self` until `replacement` sends any event, then `replacement` only (see
    /// `Signal.take(untilReplacement:)`).
    ///
    /// - Parameters:
    ///   - replacement: The signal that takes over on its first event.
    /// - Returns: A producer forwarding `self`, then `replacement`, for each start.
    public func take(untilReplacement replacement: Signal<Value, Error>) -> SignalProducer<Value, Error> {
        lift { $0.take(untilReplacement: replacement) }
    }

    /// Forwards `self` until `replacement` sends any event, then `replacement` only (both started per start).
    ///
    /// - Parameters:
    ///   - replacement: The producer that takes over on its first event.
    /// - Returns: A producer forwarding `self`, then `replacement`.
    public func take(untilReplacement replacement: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        lift(Signal.take(untilReplacement:))(replacement)
    }
}
