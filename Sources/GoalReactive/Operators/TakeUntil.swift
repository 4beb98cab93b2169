extension Signal {
    /// Forwards events until `trigger` sends a value or completes; then the result completes.
    ///
    /// The trigger's interruption is ignored: the result keeps forwarding `self`.
    ///
    /// - Parameters:
    ///   - trigger: Ends the result on its first value or its completion.
    /// - Returns: A signal forwarding `self` until the trigger fires.
    public func take(until trigger: Signal<(), Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += trigger.observe { event in
                switch event {
                case .value, .completed: output.sendCompleted()
                case .interrupted: break
                }
            }
            lifetime += self.observe(output)
        }
    }

    /// Forwards events until `lifetime` ends; then the result completes.
    ///
    /// If `lifetime` has already ended, the result has already completed (observers get `.interrupted`).
    ///
    /// - Parameters:
    ///   - lifetime: Ends the result when it ends.
    /// - Returns: A signal forwarding `self` during `lifetime`.
    public func take(during lifetime: Lifetime) -> Signal<Value, Error> {
        Signal { output, resultLifetime in
            resultLifetime += lifetime.observeEnded { output.sendCompleted() }
            resultLifetime += self.observe(output)
        }
    }

    /// Drops values until `trigger` sends a value or completes; afterwards forwards everything.
    ///
    /// Terminal events of `self` are forwarded at any time; the trigger's interruption is ignored.
    ///
    /// - Parameters:
    ///   - trigger: Opens the gate on its first value or its completion.
    /// - Returns: A signal forwarding `self` after the trigger fired.
    public func skip(until trigger: Signal<(), Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let gate = Gate()
            let triggerObservation = SerialDisposable()
            lifetime += triggerObservation
            triggerObservation.inner = trigger.observe { event in
                switch event {
                case .value, .completed:
                    gate.open()
                    triggerObservation.dispose()
                case .interrupted: break
                }
            }
            lifetime += self.observe { event in
                if event.isTerminating || gate.isOpen { output.send(event) }
            }
        }
    }
}

/// A thread-safe one-way flag.
final class Gate: @unchecked Sendable {
    // `@unchecked Sendable`: `opened` is only touched under `lock`.
    private let lock = Lock()
    private var opened = false

    var isOpen: Bool { lock.withLock { opened } }

    func open() { lock.withLock { opened = true } }
}

extension SignalProducer {
    /// Forwards events until `trigger` sends a value or completes; then the result completes.
    ///
    /// The trigger is started **before** `self` (ReactiveSwift's order): a trigger that fires synchronously
    /// completes the result before `self` starts.
    ///
    /// - Parameters:
    ///   - trigger: Ends the result on its first value or its completion.
    /// - Returns: A producer forwarding `self` until the trigger fires.
    public func take(until trigger: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        lift(Signal.take(until:))(trigger)
    }

    /// Forwards events until `trigger` sends a value or completes; then the result completes.
    ///
    /// - Parameters:
    ///   - trigger: Ends the result on its first value or its completion.
    /// - Returns: A producer forwarding `self` until the trigger fires.
    public func take(until trigger: Signal<(), Never>) -> SignalProducer<Value, Error> {
        lift { $0.take(until: trigger) }
    }

    /// Forwards events until `lifetime` ends; then the result completes.
    ///
    /// - Parameters:
    ///   - lifetime: Ends each start when it ends.
    /// - Returns: A producer forwarding `self` during `lifetime`.
    public func take(during lifetime: Lifetime) -> SignalProducer<Value, Error> {
        lift { $0.take(during: lifetime) }
    }

    /// Drops values until `trigger` sends a value or completes (the trigger is started first).
    ///
    /// - Parameters:
    ///   - trigger: Opens the gate on its first value or its completion.
    /// - Returns: A producer forwarding `self` after the trigger fired.
    public func skip(until trigger: SignalProducer<(), Never>) -> SignalProducer<Value, Error> {
        lift(Signal.skip(until:))(trigger)
    }

    /// Drops values until `trigger` sends a value or completes.
    ///
    /// - Parameters:
    ///   - trigger: Opens the gate on its first value or its completion.
    /// - Returns: A producer forwarding `self` after the trigger fired.
    public func skip(until trigger: Signal<(), Never>) -> SignalProducer<Value, Error> {
        lift { $0.skip(until: trigger) }
    }
}
