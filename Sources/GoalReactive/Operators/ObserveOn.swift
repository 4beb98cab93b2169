extension Signal {
    /// Delivers every event through `scheduler`: nothing is forwarded synchronously.
    ///
    /// If the result is disposed, the upstream is detached at once and events already queued on the
    /// scheduler are dropped.
    ///
    /// Threading: every event is sent on `scheduler`, in the order it arrived.
    ///
    /// - Parameters:
    ///   - scheduler: Where to deliver events.
    /// - Returns: A signal delivering on `scheduler`.
    public func observe(on scheduler: any Scheduler) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += self.observe { event in
                scheduler.schedule(during: lifetime) { output.send(event) }
            }
        }
    }
}

extension SignalProducer {
    /// Delivers every event through `scheduler`; see ``Signal/observe(on:)``.
    ///
    /// Threading: every event is sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - scheduler: Where to deliver events.
    /// - Returns: A producer delivering on `scheduler`.
    public func observe(on scheduler: any Scheduler) -> SignalProducer<Value, Error> {
        liftEvents(interruptingOn: scheduler) { $0.observe(on: scheduler) }
    }

    /// Runs the start handler (the side effects of starting) through `scheduler`.
    ///
    /// Events are delivered wherever the producer sends them. Disposing a start before the scheduler ran it
    /// cancels it: the start handler never runs.
    ///
    /// Threading: the start handler runs on `scheduler`.
    ///
    /// - Parameters:
    ///   - scheduler: Where to start.
    /// - Returns: A producer that starts on `scheduler`.
    public func start(on scheduler: any Scheduler) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            lifetime += scheduler.schedule {
                self.startWithSignal { signal, interruptHandle in
                    lifetime += interruptHandle
                    lifetime += signal.observe(observer)
                }
            }
        }
    }
}
