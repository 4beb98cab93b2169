extension Signal {
    /// Receives the events of a signal, or feeds events into one.
    ///
    /// An observer you create wraps a closure: `send` calls it directly, with no locking and no grammar
    /// enforcement — attach it to a signal with ``Signal/observe(_:)`` and the signal guarantees serial,
    /// grammatical delivery.
    ///
    /// The *input observer* handed out by ``Signal/pipe(disposable:)``, ``Signal/init(_:)`` and
    /// ``SignalProducer/init(_:)`` is different: it is the thread-safe entry point of its signal (sends from any
    /// thread are serialized, events after the terminal one are dropped) and it sends `.interrupted` when it is
    /// deinitialized, so a producing side that lets go of its observer interrupts the signal. It retains the
    /// signal's machinery but not the `Signal` object itself.
    ///
    /// Threading: `Observer` is `Sendable`; an input observer may be used from any thread. The closures of
    /// observers you create run on whatever thread the signal delivers on — the library does not check that
    /// what they capture is safe to use there, exactly like ReactiveSwift.
    public final class Observer: @unchecked Sendable {
        // `@unchecked Sendable`: the only stored state is immutable. An input observer forwards to a
        // lock-protected `SignalCore`; a user observer's closure is only ever invoked by a signal's serialized
        // delivery (or directly by its creator, who then owns the threading).
        private let action: (Event) -> Void
        private let interruptsOnDeinit: Bool

        /// Creates an observer that calls `action` for every event.
        ///
        /// - Parameters:
        ///   - action: Called with each event sent to this observer.
        public init(_ action: @escaping (Event) -> Void) {
            self.action = action
            self.interruptsOnDeinit = false
        }

        /// Creates an observer from per-kind callbacks; missing callbacks ignore their events.
        ///
        /// - Parameters:
        ///   - value: Called for each value.
        ///   - failed: Called on failure.
        ///   - completed: Called on completion.
        ///   - interrupted: Called on interruption.
        public convenience init(
            value: ((Value) -> Void)? = nil,
            failed: ((Error) -> Void)? = nil,
            completed: (() -> Void)? = nil,
            interrupted: (() -> Void)? = nil
        ) {
            self.init { event in
                switch event {
                case let .value(payload): value?(payload)
                case let .failed(error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
            }
        }

        /// The input observer of `core`.
        init(inputOf core: SignalCore<Value, Error>) {
            self.action = core.send
            self.interruptsOnDeinit = true
        }

        deinit {
            if interruptsOnDeinit { action(.interrupted) }
        }

        /// Sends `event` to this observer.
        ///
        /// - Parameters:
        ///   - event: The event to send.
        public func send(_ event: Event) {
            action(event)
        }

        /// Sends a value.
        ///
        /// - Parameters:
        ///   - value: The payload.
        public func send(value: Value) {
            action(.value(value))
        }

        /// Sends a failure (terminal).
        ///
        /// - Parameters:
        ///   - error: The error.
        public func send(error: Error) {
            action(.failed(error))
        }

        /// Sends completion (terminal).
        public func sendCompleted() {
            action(.completed)
        }

        /// Sends interruption (terminal).
        public func sendInterrupted() {
            action(.interrupted)
        }
    }
}
