extension SignalProducer {
    /// A producer that sends `value`, then completes, on every start.
    ///
    /// - Parameters:
    ///   - value: Sent on each start.
    public init(value: Value) {
        self.init { observer, _ in
            observer.send(value: value)
            observer.sendCompleted()
        }
    }

    /// A producer that calls `action` at start time (not at creation) and sends its result, then completes.
    ///
    /// - Parameters:
    ///   - action: Run once per start.
    public init(_ action: @escaping () -> Value) {
        self.init { observer, _ in
            observer.send(value: action())
            observer.sendCompleted()
        }
    }

    /// A producer that calls `action` at start time and sends its success value then completion, or its failure.
    ///
    /// - Parameters:
    ///   - action: Run once per start.
    public init(_ action: @escaping () -> Result<Value, Error>) {
        self.init { observer, _ in
            switch action() {
            case let .success(value):
                observer.send(value: value)
                observer.sendCompleted()
            case let .failure(error):
                observer.send(error: error)
            }
        }
    }

    /// A producer that fails with `error` on every start (no completion).
    ///
    /// - Parameters:
    ///   - error: Sent on each start.
    public init(error: Error) {
        self.init { observer, _ in observer.send(error: error) }
    }

    /// A producer that sends the success value then completes, or fails, on every start.
    ///
    /// - Parameters:
    ///   - result: The outcome sent on each start.
    public init(result: Result<Value, Error>) {
        self.init { result }
    }

    /// A producer that sends each element of `values`, then completes. Iteration stops early if the start is
    /// interrupted.
    ///
    /// - Parameters:
    ///   - values: Iterated once per start.
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        self.init { observer, lifetime in
            var iterator = values.makeIterator()
            // Check before pulling the next element, so an interrupted start pulls nothing more.
            while !lifetime.hasEnded {
                guard let value = iterator.next() else {
                    observer.sendCompleted()
                    return
                }
                observer.send(value: value)
            }
        }
    }

    /// A producer that sends `first`, then each of `rest`, then completes.
    ///
    /// - Parameters:
    ///   - first: The first value.
    ///   - rest: The remaining values, in order.
    public init(values first: Value, _ rest: Value...) {
        self.init([first] + rest)
    }

    /// A producer that observes `signal` on every start.
    ///
    /// Starting after `signal` terminated yields `.interrupted`. Disposing a start only detaches that
    /// observation. The producer retains `signal`.
    ///
    /// - Parameters:
    ///   - signal: The hot signal to forward.
    public init(_ signal: Signal<Value, Error>) {
        self.init { observer, lifetime in
            lifetime += signal.observe(observer)
        }
    }

    /// A producer that completes immediately on every start.
    public static var empty: SignalProducer {
        SignalProducer { observer, _ in observer.sendCompleted() }
    }

    /// A producer that never sends anything by itself; disposing a start yields exactly one `.interrupted`.
    public static var never: SignalProducer {
        SignalProducer { observer, lifetime in
            lifetime.observeEnded { _ = observer }
        }
    }
}

extension Signal {
    /// A producer that observes this signal on every start; see ``SignalProducer/init(_:)-(Signal)``.
    public var producer: SignalProducer<Value, Error> {
        SignalProducer(self)
    }
}
