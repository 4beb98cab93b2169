/// A cold stream: a recipe for creating signals. Nothing happens until it is started, and **every start runs
/// the start handler again**, producing an independent signal with its own events.
///
/// Starting returns a disposable; disposing it sends `.interrupted` to that start's observers (once, however
/// often it is disposed), then ends that start's lifetime, which disposes everything the start handler tied to
/// it — interruption therefore propagates upstream through lifted operators. Natural termination ends the
/// lifetime too (after the terminal event reached the observers).
///
/// Synchronous producers deliver all their events before `start` returns.
///
/// Threading: a `SignalProducer` is an immutable value and `Sendable`; it may be started from any thread, and
/// its events are delivered on whatever thread the start handler sends them (the thread calling `start`, for
/// synchronous producers). The produced signal's input observer is thread-safe.
///
/// Extension point: operators are written once on ``Signal`` and lifted with ``lift(_:)-(Signal->Signal)``
/// (see `SignalProducer+Lift.swift`).
public struct SignalProducer<Value, Error: Swift.Error>: @unchecked Sendable {
    // `@unchecked Sendable`: the start handler is immutable; each start gets its own thread-safe observer
    // and lifetime. As with ReactiveSwift, state captured by the handler is the author's responsibility.
    private let startHandler: (Signal<Value, Error>.Observer, Lifetime) -> Void

    /// Creates a producer whose start handler runs once per start.
    ///
    /// The handler runs synchronously inside `start`, after the starter's observers are attached. Keep the
    /// observer as long as you want to send (releasing it interrupts this start); stop work and release
    /// resources when `lifetime` ends (on termination or interruption).
    ///
    /// - Parameters:
    ///   - startHandler: Receives the started signal's thread-safe input observer and its lifetime.
    public init(_ startHandler: @escaping (_ observer: Signal<Value, Error>.Observer, _ lifetime: Lifetime) -> Void) {
        self.startHandler = startHandler
    }

    /// Creates the produced signal, lets `setup` attach to it, and only then runs the start handler.
    ///
    /// If `setup` disposes the interrupt handle, the start handler never runs and attached observers receive
    /// `.interrupted`.
    ///
    /// - Parameters:
    ///   - setup: Receives the produced signal and its interrupt handle; its result is returned.
    /// - Returns: What `setup` returned.
    @discardableResult
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Error>, _ interruptHandle: any Disposable) -> Result
    ) -> Result {
        var input: Signal<Value, Error>.Observer?
        var lifetime: Lifetime?
        let signal = Signal<Value, Error> { observer, signalLifetime in
            input = observer
            lifetime = signalLifetime
        }
        // Holds the machinery, not the input observer: releasing the input must still interrupt.
        let interruptHandle = AnyDisposable { [core = signal.core] in core.send(.interrupted) }
        let result = setup(signal, interruptHandle)
        if let input, let lifetime, !lifetime.hasEnded {
            // Keep the `Signal` object alive while the handler runs, so that an unobserved start is not
            // disposed silently under it.
            withExtendedLifetime(signal) {
                startHandler(input, lifetime)
            }
        }
        return result
    }

    /// Starts the producer with `observer` attached.
    ///
    /// - Parameters:
    ///   - observer: Receives this start's events.
    /// - Returns: A disposable that interrupts this start.
    @discardableResult
    public func start(_ observer: Signal<Value, Error>.Observer = .init()) -> any Disposable {
        startWithSignal { signal, interruptHandle in
            signal.observe(observer)
            return interruptHandle
        }
    }
}
