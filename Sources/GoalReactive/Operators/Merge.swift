extension Signal {
    /// Merges `signals` into one signal, interleaving their values in arrival order.
    ///
    /// Completes when **all** inputs completed; an input's interruption counts as its completion; a failure of
    /// any input is forwarded at once. An empty sequence gives an already-completed signal.
    ///
    /// - Parameters:
    ///   - signals: The inputs.
    /// - Returns: A signal of every input's values.
    public static func merge<S: Sequence>(_ signals: S) -> Signal<Value, Error>
    where S.Element == Signal<Value, Error> {
        let inputs = Array(signals)
        return Signal { output, lifetime in
            guard !inputs.isEmpty else { return output.sendCompleted() }
            let lock = Lock()
            var running = inputs.count
            for input in inputs {
                lifetime += input.observe { event in
                    switch event {
                    case .value, .failed: output.send(event)
                    case .completed, .interrupted:
                        let isDone: Bool = lock.withLock {
                            running -= 1
                            return running == 0
                        }
                        if isDone { output.sendCompleted() }
                    }
                }
            }
        }
    }

    /// Merges the given signals; see ``merge(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - signals: The inputs.
    /// - Returns: A signal of every input's values.
    public static func merge(_ signals: Signal<Value, Error>...) -> Signal<Value, Error> {
        merge(signals)
    }

    /// Merges `self` with `other`; see ``merge(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A signal of both inputs' values.
    public func merge(with other: Signal<Value, Error>) -> Signal<Value, Error> {
        Signal.merge(self, other)
    }
}

extension SignalProducer {
    /// Merges `producers`, started in order on each start, interleaving their values in arrival order.
    ///
    /// Same completion rules as ``Signal/merge(_:)-(S)``; disposing a start interrupts every input.
    ///
    /// - Parameters:
    ///   - producers: The inputs.
    /// - Returns: A producer of every input's values.
    public static func merge<S: Sequence>(_ producers: S) -> SignalProducer<Value, Error>
    where S.Element == SignalProducer<Value, Error> {
        SignalProducer<SignalProducer<Value, Error>, Error>(Array(producers)).flatten(.merge)
    }

    /// Merges the given producers; see ``merge(_:)-(S)``.
    ///
    /// - Parameters:
    ///   - producers: The inputs.
    /// - Returns: A producer of every input's values.
    public static func merge(_ producers: SignalProducer<Value, Error>...) -> SignalProducer<Value, Error> {
        merge(producers)
    }

    /// Merges `self` with `other` (started in that order).
    ///
    /// - Parameters:
    ///   - other: The second input.
    /// - Returns: A producer of both inputs' values.
    public func merge(with other: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer.merge(self, other)
    }
}
