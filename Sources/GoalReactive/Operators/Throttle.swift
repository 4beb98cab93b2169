public import Foundation

extension Signal {
    /// Forwards at most one value per `interval`, always the latest one received.
    ///
    /// Values are always delivered through `scheduler`, even the first (it arrives on the scheduler's next
    /// turn). After a value is sent, the next one is sent no earlier than `interval` later; values arriving
    /// meanwhile replace each other and only the latest is sent. Terminal events are sent on the scheduler's
    /// next turn and drop a pending value.
    ///
    /// Threading: values and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two sent values, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    /// - Returns: A throttled signal.
    public func throttle(_ interval: TimeInterval, on scheduler: any DateScheduler) -> Signal<Value, Error> {
        precondition(interval >= 0, "throttle needs a non-negative interval")
        return Signal { output, lifetime in
            let state = ThrottleState<Value>()
            let timer = SerialDisposable()
            lifetime += timer
            lifetime += self.observe { event in
                guard case let .value(value) = event else {
                    timer.inner = scheduler.schedule { output.send(event) }
                    return
                }
                let now = scheduler.currentDate
                let date = state.setPending(value, now: now, interval: interval)
                timer.inner = scheduler.schedule(after: date) {
                    if let value = state.takePending(sentAt: date) { output.send(value: value) }
                }
            }
        }
    }
}

/// The pending value and last emission date of ``Signal/throttle(_:on:)``, shared by the upstream and the
/// scheduler.
private final class ThrottleState<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `pending` and `lastSent` are only touched under `lock`.
    private let lock = Lock()
    private var pending: Value?
    private var lastSent: Date?

    /// Stores `value` and returns when it may be sent.
    func setPending(_ value: Value, now: Date, interval: TimeInterval) -> Date {
        lock.withLock {
            pending = value
            // A last emission "in the future" (the clock was rewound) does not hold values back.
            guard let lastSent, lastSent <= now else { return now }
            return max(now, lastSent.addingTimeInterval(interval))
        }
    }

    func takePending(sentAt date: Date) -> Value? {
        lock.withLock {
            guard let value = pending else { return nil }
            pending = nil
            lastSent = date
            return value
        }
    }
}

extension SignalProducer {
    /// Forwards at most one value per `interval`, always the latest; see ``Signal/throttle(_:on:)``.
    ///
    /// Threading: values and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two sent values, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    /// - Returns: A throttled producer.
    public func throttle(_ interval: TimeInterval, on scheduler: any DateScheduler) -> SignalProducer<Value, Error> {
        liftEvents(interruptingOn: scheduler) { $0.throttle(interval, on: scheduler) }
    }
}
