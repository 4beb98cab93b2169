/// A cold stream: a recipe for creating signals. Nothing happens until it is started, and **every start runs
/// the start handler again**, producing an independent signal with its own events.
///
/// Starting returns a disposable (the start's *interrupt handle*); disposing it sends `.interrupted` to that
/// start's observers (once, however often it is disposed), then ends that start's lifetime, which disposes
/// everything the start handler tied to it — interruption therefore propagates upstream through lifted operators.
/// Natural termination ends the lifetime too (after the terminal event reached the observers). Asynchronous
/// operators (`observe(on:)`, `delay`, `throttle`, `debounce`, `collect(every:)`) and the event-transforming
/// operators after them end the lifetime at once but deliver `.interrupted` on their scheduler, as in
/// ReactiveSwift.
///
/// Lifetime: a start lives until it terminates or is disposed. The start handler need not keep its observer:
/// the interrupt handle keeps it, and every operator keeps the interrupt handles of the starts it depends on
/// (`lift`, `flatten`, `then`, …). Only when neither the handler nor any holder of the interrupt handle references
/// the observer any more does the start end, interrupted by its input observer's deinitialization (for example
/// `producer.start()` with the result discarded, over a handler that keeps nothing) — ReactiveSwift's rule.
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
    /// How disposing a start's interrupt handle reaches that start's observers.
    let interruption: StartInterruption

    /// Creates a producer whose start handler runs once per start.
    ///
    /// The handler runs synchronously inside `start`, after the starter's observers are attached. It may keep the
    /// observer for as long as it wants to send, or let go of it: the start lives on until it terminates or is
    /// disposed (see the type's lifetime rules). Stop work and release resources when `lifetime` ends (on
    /// termination or interruption).
    ///
    /// - Parameters:
    ///   - startHandler: Receives the started signal's thread-safe input observer and its lifetime.
    public init(_ startHandler: @escaping (_ observer: Signal<Value, Error>.Observer, _ lifetime: Lifetime) -> Void) {
        self.init(interruption: .immediate, startHandler)
    }

    /// Creates a producer whose starts are interrupted as `interruption` says.
    init(
        interruption: StartInterruption,
        _ startHandler: @escaping (_ observer: Signal<Value, Error>.Observer, _ lifetime: Lifetime) -> Void
    ) {
        self.startHandler = startHandler
        self.interruption = interruption
    }

    /// Creates the produced signal, lets `setup` attach to it, and only then runs the start handler.
    ///
    /// The interrupt handle keeps the start alive (it retains the start's input observer) until it is disposed or
    /// released. If `setup` disposes it, the start handler never runs and attached observers receive
    /// `.interrupted`. A produced signal that `setup` neither observes nor keeps is disposed silently.
    ///
    /// - Parameters:
    ///   - setup: Receives the produced signal and its interrupt handle; its result is returned.
    /// - Returns: What `setup` returned.
    @discardableResult
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Error>, _ interruptHandle: any Disposable) -> Result
    ) -> Result {
        let (signal, input) = Signal<Value, Error>.pipe()
        let (handlerLifetime, interruptHandle) = interruption.prepare(
            input: input,
            signalLifetime: signal.core.lifetime
        )
        let result = setup(signal, interruptHandle)
        if handlerLifetime.hasEnded {
            interruption.interruptSkippedStart(input)
        } else {
            // Keep the `Signal` object alive while the handler runs, so that an unobserved start is not
            // disposed silently under it.
            withExtendedLifetime(signal) {
                startHandler(input, handlerLifetime)
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
