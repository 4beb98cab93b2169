public import Foundation

extension Signal {
    /// Forwards a value only once `interval` has passed without another value arriving.
    ///
    /// Every value (re)starts a timer of `interval` on `scheduler`; when it fires, the latest value is sent.
    /// On completion with a value still pending: if `discardWhenCompleted`, the pending value is dropped and
    /// completion is sent on the scheduler's next turn; otherwise the pending value is sent when its timer
    /// fires, followed by completion. Failure and interruption are sent on the scheduler's next turn and
    /// drop the pending value.
    ///
    /// Threading: values and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The quiet period, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    ///   - discardWhenCompleted: Whether completion drops a pending value.
    /// - Returns: A debounced signal.
    public func debounce(
        _ interval: TimeInterval,
        on scheduler: any DateScheduler,
        discardWhenCompleted: Bool = true
    ) -> Signal<Value, Error> {
        precondition(interval >= 0, "debounce needs a non-negative interval")
        return Signal { output, lifetime in
            let state = DebounceState<Value>()
            let timer = SerialDisposable()
            lifetime += timer
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    state.setPending(value)
                    let date = scheduler.currentDate.addingTimeInterval(interval)
                    timer.inner = scheduler.schedule(after: date) {
                        guard let (value, isCompleted) = state.takePending() else { return }
                        output.send(value: value)
                        if isCompleted { output.sendCompleted() }
                    }
                case .completed where !discardWhenCompleted && state.completeKeepingPending():
                    // The pending timer sends the value, then completion.
                    break
                default:
                    timer.inner = scheduler.schedule { output.send(event) }
                }
            }
        }
    }
}

/// The pending value of ``Signal/debounce(_:on:discardWhenCompleted:)``, shared by the upstream and the
/// scheduler.
private final class DebounceState<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `pending` and `isCompleted` are only touched under `lock`.
    private let lock = Lock()
    private var pending: Value?
    private var isCompleted = false

    func setPending(_ value: Value) { lock.withLock { pending = value } }

    /// Marks completion. Returns whether a value is pending (its timer will then complete the stream).
    func completeKeepingPending() -> Bool {
        lock.withLock {
            isCompleted = true
            return pending != nil
        }
    }

    func takePending() -> (Value, Bool)? {
        lock.withLock {
            defer { pending = nil }
            return pending.map { ($0, isCompleted) }
        }
    }
}

extension SignalProducer {
    /// Forwards a value only once `interval` has passed without another value; see
    /// ``Signal/debounce(_:on:discardWhenCompleted:)``.
    ///
    /// Threading: values and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The quiet period, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    ///   - discardWhenCompleted: Whether completion drops a pending value.
    /// - Returns: A debounced producer.
    public func debounce(
        _ interval: TimeInterval,
        on scheduler: any DateScheduler,
        discardWhenCompleted: Bool = true
    ) -> SignalProducer<Value, Error> {
        liftEvents(interruptingOn: scheduler) {
            $0.debounce(interval, on: scheduler, discardWhenCompleted: discardWhenCompleted)
        }
    }
}
