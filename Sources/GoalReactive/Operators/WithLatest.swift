extension Signal {
    /// Pairs every value of `self` with the latest value of `samplee`.
    ///
    /// Values of `self` arriving before `samplee` sent anything are dropped. The result terminates with
    /// `self`; `samplee`'s termination is ignored (its latest value stays in use).
    ///
    /// - Parameters:
    ///   - samplee: Provides the latest value.
    /// - Returns: A signal of `(value, latest)` tuples.
    public func withLatest<U>(from samplee: Signal<U, Never>) -> Signal<(Value, U), Error> {
        Signal<(Value, U), Error> { output, lifetime in
            let latest = LatestValue<U>()
            lifetime += samplee.observeValues { latest.value = $0 }
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    if let sample = latest.value { output.send(value: (value, sample)) }
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Pairs every value of `self` with the latest value of `samplee`, which is started once for the result.
    ///
    /// - Parameters:
    ///   - samplee: Started when the result is created; interrupted when the result ends.
    /// - Returns: A signal of `(value, latest)` tuples.
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> Signal<(Value, U), Error> {
        Signal<(Value, U), Error> { output, lifetime in
            samplee.startWithSignal { signal, interruptHandle in
                lifetime += interruptHandle
                lifetime += self.withLatest(from: signal).observe(output)
            }
        }
    }
}

/// The latest value of a sampled stream, written and read from different signals' delivery threads.
final class LatestValue<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `stored` is only touched under `lock`.
    private let lock = Lock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension SignalProducer {
    /// Pairs every value with the latest value of `samplee`; see ``Signal/withLatest(from:)-(Signal<U,Never>)``.
    ///
    /// - Parameters:
    ///   - samplee: Provides the latest value.
    /// - Returns: A producer of `(value, latest)` tuples.
    public func withLatest<U>(from samplee: Signal<U, Never>) -> SignalProducer<(Value, U), Error> {
        lift { $0.withLatest(from: samplee) }
    }

    /// Pairs every value with the latest value of `samplee`, which is started (before `self`) on each start.
    ///
    /// - Parameters:
    ///   - samplee: Started on each start, before `self`; interrupted when that start ends.
    /// - Returns: A producer of `(value, latest)` tuples.
    public func withLatest<U>(from samplee: SignalProducer<U, Never>) -> SignalProducer<(Value, U), Error> {
        lift { $0.withLatest(from: samplee) }
    }
}
