/// The `Signal` implementations of the flatten strategies, over an outer signal of producers.
///
/// Each returns a signal that observes `outer`; inner producers are started with `startWithSignal`, their
/// interrupt handles tied to the result's lifetime, so disposing the result interrupts every inner.
enum Flatten {
    static func run<V, E>(
        _ outer: Signal<SignalProducer<V, E>, E>,
        _ strategy: FlattenStrategy
    ) -> Signal<V, E> {
        switch strategy.kind {
        case let .concurrent(limit): return concurrent(outer, limit: limit)
        case .latest: return latest(outer)
        case .race: return race(outer)
        }
    }

    /// `.merge` (unlimited) and `.concat` (limit 1).
    private static func concurrent<V, E>(_ outer: Signal<SignalProducer<V, E>, E>, limit: Int) -> Signal<V, E> {
        Signal<V, E> { output, lifetime in
            let lock = Lock()
            var active = 0
            var queue: [SignalProducer<V, E>] = []
            var outerCompleted = false
            let inners = CompositeDisposable()
            lifetime += inners

            func start(_ producer: SignalProducer<V, E>) {
                producer.startWithSignal { signal, interruptHandle in
                    let handle = inners.add(interruptHandle)
                    signal.observe { event in
                        switch event {
                        case let .value(value): output.send(value: value)
                        case let .failed(error): output.send(error: error)
                        case .completed, .interrupted:
                            handle?.dispose()
                            let (next, isDone): (SignalProducer<V, E>?, Bool) = lock.withLock {
                                if !queue.isEmpty { return (queue.removeFirst(), false) }
                                active -= 1
                                return (nil, active == 0 && outerCompleted)
                            }
                            if let next, !lifetime.hasEnded {
                                start(next)
                            } else if isDone {
                                output.sendCompleted()
                            }
                        }
                    }
                }
            }

            lifetime += outer.observe { event in
                switch event {
                case let .value(producer):
                    let startNow: Bool = lock.withLock {
                        guard active < limit else {
                            queue.append(producer)
                            return false
                        }
                        active += 1
                        return true
                    }
                    if startNow { start(producer) }
                case let .failed(error): output.send(error: error)
                case .completed:
                    let isDone: Bool = lock.withLock {
                        outerCompleted = true
                        return active == 0
                    }
                    if isDone { output.sendCompleted() }
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    private static func latest<V, E>(_ outer: Signal<SignalProducer<V, E>, E>) -> Signal<V, E> {
        Signal<V, E> { output, lifetime in
            let lock = Lock()
            var latestID = 0
            var latestCompleted = true
            var outerCompleted = false
            let current = SerialDisposable()
            lifetime += current

            lifetime += outer.observe { event in
                switch event {
                case let .value(producer):
                    let id: Int = lock.withLock {
                        latestID += 1
                        latestCompleted = false
                        return latestID
                    }
                    producer.startWithSignal { signal, interruptHandle in
                        // Disposes (interrupts) the previous inner; its events now carry a stale id.
                        current.inner = interruptHandle
                        signal.observe { event in
                            switch event {
                            case let .value(value):
                                if lock.withLock({ id == latestID }) { output.send(value: value) }
                            case let .failed(error): output.send(error: error)
                            case .completed, .interrupted:
                                let isDone: Bool = lock.withLock {
                                    guard id == latestID else { return false }
                                    latestCompleted = true
                                    return outerCompleted
                                }
                                if isDone { output.sendCompleted() }
                            }
                        }
                    }
                case let .failed(error): output.send(error: error)
                case .completed:
                    let isDone: Bool = lock.withLock {
                        outerCompleted = true
                        return latestCompleted
                    }
                    if isDone { output.sendCompleted() }
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    private static func race<V, E>(_ outer: Signal<SignalProducer<V, E>, E>) -> Signal<V, E> {
        Signal<V, E> { output, lifetime in
            let lock = Lock()
            var winner: Int?
            var nextID = 0
            var winnerCompleted = true
            var outerCompleted = false
            let contenders = CompositeDisposable()
            lifetime += contenders

            lifetime += outer.observe { event in
                switch event {
                case let .value(producer):
                    let id: Int? = lock.withLock {
                        guard winner == nil else { return nil }
                        nextID += 1
                        winnerCompleted = false
                        return nextID
                    }
                    guard let id else { return }
                    producer.startWithSignal { signal, interruptHandle in
                        let handle = contenders.add(interruptHandle)
                        signal.observe { event in
                            let (isWinner, justWon): (Bool, Bool) = lock.withLock {
                                if winner == nil {
                                    winner = id
                                    return (true, true)
                                }
                                return (winner == id, false)
                            }
                            guard isWinner else { return }
                            if justWon {
                                // Keep the winner, interrupt every other contender.
                                handle?.dispose()
                                contenders.dispose()
                                lifetime += interruptHandle
                            }
                            switch event {
                            case let .value(value): output.send(value: value)
                            case let .failed(error): output.send(error: error)
                            case .completed, .interrupted:
                                let isDone: Bool = lock.withLock {
                                    winnerCompleted = true
                                    return outerCompleted
                                }
                                if isDone { output.sendCompleted() }
                            }
                        }
                    }
                case let .failed(error): output.send(error: error)
                case .completed:
                    let isDone: Bool = lock.withLock {
                        outerCompleted = true
                        return winnerCompleted
                    }
                    if isDone { output.sendCompleted() }
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}
