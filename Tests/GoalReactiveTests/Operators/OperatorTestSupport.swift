import Foundation

@testable import GoalReactive

/// Observes `signal` and records every event as its description (`"VALUE 1"`, `"COMPLETED"`, …).
func record<V, E>(_ signal: Signal<V, E>) -> Log<String> {
    let log = Log<String>()
    signal.observe { log.append("\($0)") }
    return log
}

/// Starts `producer` and records every event as its description.
func record<V, E>(_ producer: SignalProducer<V, E>) -> (log: Log<String>, disposable: any Disposable) {
    let log = Log<String>()
    let disposable = producer.start { log.append("\($0)") }
    return (log, disposable)
}

/// A cold producer driven by hand: every start is recorded, its observer kept so the test can send to it,
/// and the end of every start's lifetime is logged.
final class ProducerProbe<Value, Error: Swift.Error>: @unchecked Sendable {
    // `@unchecked Sendable`: state is only touched under `lock`.
    private let lock = NSLock()
    private var observers: [Signal<Value, Error>.Observer] = []
    private var ended = 0

    var producer: SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            self.lock.withLock { self.observers.append(observer) }
            lifetime.observeEnded { self.lock.withLock { self.ended += 1 } }
        }
    }

    /// How many times the producer was started.
    var starts: Int { lock.withLock { observers.count } }

    /// How many starts have ended (terminated or interrupted).
    var endedStarts: Int { lock.withLock { ended } }

    /// The observer of the `index`th start.
    subscript(index: Int) -> Signal<Value, Error>.Observer {
        lock.withLock { observers[index] }
    }

    /// The observer of the latest start.
    var last: Signal<Value, Error>.Observer {
        lock.withLock { observers[observers.count - 1] }
    }
}
