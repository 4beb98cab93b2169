extension SignalProducer {
    /// Starts the producer, calling `action` with every event.
    ///
    /// - Parameters:
    ///   - action: Called serially with each event of this start.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func start(_ action: @escaping (Signal<Value, Error>.Event) -> Void) -> any Disposable {
        start(Signal.Observer(action))
    }

    /// Starts the producer, reporting values as `.success` and a failure as `.failure`.
    ///
    /// - Parameters:
    ///   - action: Called serially with each result.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func startWithResult(_ action: @escaping (Result<Value, Error>) -> Void) -> any Disposable {
        start(
            Signal.Observer(
                value: { action(.success($0)) },
                failed: { action(.failure($0)) }
            )
        )
    }

    /// Starts the producer, reporting completion only.
    ///
    /// - Parameters:
    ///   - action: Called once if this start completes.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func startWithCompleted(_ action: @escaping () -> Void) -> any Disposable {
        start(Signal.Observer(completed: action))
    }

    /// Starts the producer, reporting failure only.
    ///
    /// - Parameters:
    ///   - action: Called once if this start fails.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func startWithFailed(_ action: @escaping (Error) -> Void) -> any Disposable {
        start(Signal.Observer(failed: action))
    }

    /// Starts the producer, reporting interruption only.
    ///
    /// - Parameters:
    ///   - action: Called once if this start is interrupted.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func startWithInterrupted(_ action: @escaping () -> Void) -> any Disposable {
        start(Signal.Observer(interrupted: action))
    }
}

extension SignalProducer where Error == Never {
    /// Starts the producer, reporting values. Only available on producers that cannot fail.
    ///
    /// - Parameters:
    ///   - action: Called serially with each value.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func startWithValues(_ action: @escaping (Value) -> Void) -> any Disposable {
        start(Signal.Observer(value: action))
    }
}
