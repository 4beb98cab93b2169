extension Signal {
    /// Observes every event with a closure.
    ///
    /// - Parameters:
    ///   - action: Called serially with each event.
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated (`action` got `.interrupted`).
    @discardableResult
    public func observe(_ action: @escaping (Event) -> Void) -> (any Disposable)? {
        observe(Observer(action))
    }

    /// Observes values as `.success` and a failure as `.failure`; completion and interruption are not reported.
    ///
    /// - Parameters:
    ///   - action: Called serially with each result.
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated.
    @discardableResult
    public func observeResult(_ action: @escaping (Result<Value, Error>) -> Void) -> (any Disposable)? {
        observe(
            Observer(
                value: { action(.success($0)) },
                failed: { action(.failure($0)) }
            )
        )
    }

    /// Observes completion only.
    ///
    /// - Parameters:
    ///   - action: Called once if the signal completes.
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated.
    @discardableResult
    public func observeCompleted(_ action: @escaping () -> Void) -> (any Disposable)? {
        observe(Observer(completed: action))
    }

    /// Observes failure only.
    ///
    /// - Parameters:
    ///   - action: Called once if the signal fails.
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated.
    @discardableResult
    public func observeFailed(_ action: @escaping (Error) -> Void) -> (any Disposable)? {
        observe(Observer(failed: action))
    }

    /// Observes interruption only. Called immediately if the signal has already terminated.
    ///
    /// - Parameters:
    ///   - action: Called once if the signal is interrupted (or was already terminated).
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated.
    @discardableResult
    public func observeInterrupted(_ action: @escaping () -> Void) -> (any Disposable)? {
        observe(Observer(interrupted: action))
    }
}

extension Signal where Error == Never {
    /// Observes values. Only available on signals that cannot fail.
    ///
    /// - Parameters:
    ///   - action: Called serially with each value.
    /// - Returns: A detaching disposable, or `nil` if the signal had terminated.
    @discardableResult
    public func observeValues(_ action: @escaping (Value) -> Void) -> (any Disposable)? {
        observe(Observer(value: action))
    }
}
