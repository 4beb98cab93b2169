/// How disposing a start's interrupt handle reaches the observers of that start.
///
/// ReactiveSwift interrupts most starts at once, but its asynchronous operators (`observe(on:)`, `delay`,
/// `throttle`, `debounce`, `collect(every:)`) stop their upstream at once and deliver `.interrupted` on their
/// scheduler, and the event-transforming operators after them (`map`, `filter`, `on`, …) pass that scheduled
/// interruption through instead of interrupting at once. This type carries that choice from operator to operator.
///
/// Threading: a value; the interrupt handles it prepares are thread-safe.
enum StartInterruption: Sendable {
    /// `.interrupted` is sent to the start at once; the start's lifetime ends right after it reached the
    /// observers. What `SignalProducer.init(_:)`, `lift(_:)` and the binary operators do.
    case immediate

    /// The start handler's lifetime ends at once (upstream starts are interrupted, events queued on the scheduler
    /// are dropped) and `.interrupted` is delivered through the scheduler. What the asynchronous operators do.
    case scheduled(on: any Scheduler)

    /// The start handler's lifetime ends at once, which disposes the upstream start; the upstream's interruption,
    /// delivered on the scheduler, then reaches this start through its event transformation. What an
    /// event-transforming operator does after an asynchronous one.
    case forwarded(from: any Scheduler)

    /// The interruption of an event-transforming operator applied to a start interrupted as `self` says.
    var throughEventTransform: StartInterruption {
        switch self {
        case .immediate: .immediate
        case let .scheduled(scheduler), let .forwarded(scheduler): .forwarded(from: scheduler)
        }
    }

    /// Whether the start handler must leave its downstream observation attached when its lifetime ends, so that
    /// the upstream's interruption still arrives through it.
    var awaitsUpstreamInterruption: Bool {
        if case .forwarded = self { true } else { false }
    }

    /// Makes the lifetime the start handler receives and the start's interrupt handle.
    ///
    /// The handle retains `input` until it is disposed or released, so a start handler that lets go of its
    /// observer does not end the start: it lives until it terminates or the handle is disposed.
    ///
    /// - Parameters:
    ///   - input: The produced signal's input observer.
    ///   - signalLifetime: The produced signal's lifetime (ends on termination or silent disposal).
    /// - Returns: The handler's lifetime and the interrupt handle.
    func prepare<Value, Error>(
        input: Signal<Value, Error>.Observer,
        signalLifetime: Lifetime
    ) -> (handlerLifetime: Lifetime, interruptHandle: any Disposable) {
        switch self {
        case .immediate:
            return (signalLifetime, AnyDisposable { input.sendInterrupted() })
        case .scheduled, .forwarded:
            // The handler's lifetime ends on disposal (at once) or with the produced signal.
            let token = Lifetime.Token()
            signalLifetime.observeEnded { token.dispose() }
            let interruptHandle = AnyDisposable {
                token.dispose()
                if case let .scheduled(scheduler) = self {
                    scheduler.schedule { input.sendInterrupted() }
                } else {
                    // `.forwarded`: the upstream's interruption arrives through the handler's observation.
                    withExtendedLifetime(input) {}
                }
            }
            return (Lifetime(token), interruptHandle)
        }
    }

    /// Interrupts a start whose handle was disposed before its start handler could run (inside
    /// `startWithSignal`'s setup): with no upstream started, a forwarded interruption must be sent here.
    func interruptSkippedStart<Value, Error>(_ input: Signal<Value, Error>.Observer) {
        if case let .forwarded(scheduler) = self {
            scheduler.schedule { input.sendInterrupted() }
        }
    }
}
