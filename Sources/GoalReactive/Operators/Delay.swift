public import Foundation

extension Signal {
    /// Delays values and completion by `interval`; failure and interruption are sent on the scheduler's next
    /// turn, without the delay (so they may overtake delayed values).
    ///
    /// Threading: every event is sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The delay, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    /// - Returns: A delayed signal.
    public func delay(_ interval: TimeInterval, on scheduler: any DateScheduler) -> Signal<Value, Error> {
        precondition(interval >= 0, "delay needs a non-negative interval")
        return Signal { output, lifetime in
            lifetime += self.observe { event in
                switch event {
                case .value, .completed:
                    let date = scheduler.currentDate.addingTimeInterval(interval)
                    scheduler.schedule(after: date, during: lifetime) { output.send(event) }
                case .failed, .interrupted:
                    scheduler.schedule(during: lifetime) { output.send(event) }
                }
            }
        }
    }

    /// Fails with `error` if `self` has not terminated `interval` after the result was created.
    ///
    /// Threading: the timeout failure is sent on `scheduler`; other events on the thread they arrive on.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; must not be negative.
    ///   - error: The failure sent on timeout.
    ///   - scheduler: Runs the timer.
    /// - Returns: A signal that fails with `error` on timeout.
    public func timeout(
        after interval: TimeInterval,
        raising error: Error,
        on scheduler: any DateScheduler
    ) -> Signal<Value, Error> {
        precondition(interval >= 0, "timeout needs a non-negative interval")
        return Signal { output, lifetime in
            let date = scheduler.currentDate.addingTimeInterval(interval)
            lifetime += scheduler.schedule(after: date) { output.send(error: error) }
            lifetime += self.observe(output)
        }
    }
}

extension Signal where Error == Never {
    /// Fails with `error` if `self` has not terminated `interval` after the result was created.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; must not be negative.
    ///   - error: The failure sent on timeout.
    ///   - scheduler: Runs the timer.
    /// - Returns: A signal that fails with `error` on timeout.
    public func timeout<F>(
        after interval: TimeInterval,
        raising error: F,
        on scheduler: any DateScheduler
    ) -> Signal<Value, F> {
        promoteError(F.self).timeout(after: interval, raising: error, on: scheduler)
    }
}

extension SignalProducer {
    /// Delays values and completion by `interval`; see ``Signal/delay(_:on:)``.
    ///
    /// Threading: every event is sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The delay, in seconds; must not be negative.
    ///   - scheduler: Runs the timers and delivers every event.
    /// - Returns: A delayed producer.
    public func delay(_ interval: TimeInterval, on scheduler: any DateScheduler) -> SignalProducer<Value, Error> {
        liftEvents(interruptingOn: scheduler) { $0.delay(interval, on: scheduler) }
    }

    /// Fails with `error` if a start has not terminated `interval` after it began.
    ///
    /// Threading: the timeout failure is sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; must not be negative.
    ///   - error: The failure sent on timeout.
    ///   - scheduler: Runs the timer.
    /// - Returns: A producer that fails with `error` on timeout.
    public func timeout(
        after interval: TimeInterval,
        raising error: Error,
        on scheduler: any DateScheduler
    ) -> SignalProducer<Value, Error> {
        lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}

extension SignalProducer where Error == Never {
    /// Fails with `error` if a start has not terminated `interval` after it began.
    ///
    /// - Parameters:
    ///   - interval: The time allowed, in seconds; must not be negative.
    ///   - error: The failure sent on timeout.
    ///   - scheduler: Runs the timer.
    /// - Returns: A producer that fails with `error` on timeout.
    public func timeout<F>(
        after interval: TimeInterval,
        raising error: F,
        on scheduler: any DateScheduler
    ) -> SignalProducer<Value, F> {
        lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}
