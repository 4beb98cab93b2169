extension Signal {
    /// Injects side effects into the signal: each hook runs **before** the event is forwarded downstream.
    ///
    /// Per event the order is: `event`, then the kind-specific hook (`value`, `failed`, `completed` or
    /// `interrupted`), then `terminated` for terminal events, then the event is forwarded. `disposed` runs when
    /// the result's lifetime ends (after termination, or when the result is disposed silently).
    ///
    /// - Parameters:
    ///   - event: Called with every event.
    ///   - failed: Called with the error on failure.
    ///   - completed: Called on completion.
    ///   - interrupted: Called on interruption.
    ///   - terminated: Called on any terminal event.
    ///   - disposed: Called when the result's lifetime ends.
    ///   - value: Called with every value.
    /// - Returns: A signal forwarding every event of `self`.
    public func on(
        event: ((Event) -> Void)? = nil,
        failed: ((Error) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        interrupted: (() -> Void)? = nil,
        terminated: (() -> Void)? = nil,
        disposed: (() -> Void)? = nil,
        value: ((Value) -> Void)? = nil
    ) -> Signal<Value, Error> {
        Signal { output, lifetime in
            if let disposed { lifetime.observeEnded(disposed) }
            lifetime += self.observe { received in
                event?(received)
                switch received {
                case let .value(payload): value?(payload)
                case let .failed(error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
                if received.isTerminating { terminated?() }
                output.send(received)
            }
        }
    }
}

extension SignalProducer {
    /// Injects side effects into every start of the producer.
    ///
    /// `starting` runs before the start handler, `started` after it returned (so for a synchronous producer
    /// `started` comes after all its events). The other hooks behave as in ``Signal/on(event:failed:completed:interrupted:terminated:disposed:value:)``:
    /// they run before the event is forwarded; `disposed` runs when the start ends (termination or
    /// interruption). Stacked hooks: `starting` fires outer-first, `started` inner-first.
    ///
    /// - Parameters:
    ///   - starting: Called before each start.
    ///   - started: Called after each start handler returned.
    ///   - event: Called with every event.
    ///   - failed: Called with the error on failure.
    ///   - completed: Called on completion.
    ///   - interrupted: Called on interruption.
    ///   - terminated: Called on any terminal event.
    ///   - disposed: Called when a start ends.
    ///   - value: Called with every value.
    /// - Returns: A producer forwarding every event of `self`.
    public func on(
        starting: (() -> Void)? = nil,
        started: (() -> Void)? = nil,
        event: ((Signal<Value, Error>.Event) -> Void)? = nil,
        failed: ((Error) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        interrupted: (() -> Void)? = nil,
        terminated: (() -> Void)? = nil,
        disposed: (() -> Void)? = nil,
        value: ((Value) -> Void)? = nil
    ) -> SignalProducer<Value, Error> {
        // Like ReactiveSwift's `on`, an event transformation: after an asynchronous operator, the hooks see the
        // interruption it delivers on its scheduler.
        let interruption = interruption.throughEventTransform
        return SignalProducer(interruption: interruption) { observer, lifetime in
            starting?()
            defer { started?() }
            self.start(
                transformedBy: {
                    $0.on(
                        event: event,
                        failed: failed,
                        completed: completed,
                        interrupted: interrupted,
                        terminated: terminated,
                        disposed: disposed,
                        value: value
                    )
                },
                into: observer,
                during: lifetime,
                interruption: interruption
            )
        }
    }
}
