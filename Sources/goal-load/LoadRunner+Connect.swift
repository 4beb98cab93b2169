extension LoadRunner {
    /// Connects every subscriber, at most `connectConcurrency` handshakes at once, then waits for their welcomes.
    /// - Returns: seconds it took.
    func connectSubscribers(_ run: Run) async -> Double {
        let started = MonotonicClock.nanoseconds()
        let subscribers = run.subscribers
        var oldestPending = 0
        for (index, subscriber) in subscribers.enumerated() {
            subscriber.connect()
            while true {
                while oldestPending <= index, subscribers[oldestPending].snapshot().phase != .connecting {
                    oldestPending += 1
                }
                if index + 1 - oldestPending < configuration.connectConcurrency { break }
                // Cancellation ends the run at the next check; the pause itself has nothing to report.
                try? await Task.sleep(for: .milliseconds(5))
            }
            if index > 0, index % 1_000 == 0 { progress("connecting: \(index)/\(subscribers.count) subscribers") }
        }
        let budget = 30 + Double(subscribers.count) / 200
        _ = await waitUntil(seconds: budget) {
            subscribers.allSatisfy { $0.snapshot().everConnected }
        }
        return MonotonicClock.seconds(from: started, to: MonotonicClock.nanoseconds())
    }

    /// Connects the writers and waits for their welcomes. - Returns: how many are ready.
    func connectWriters(_ run: Run) async -> Int {
        for writer in run.writers { writer.connect() }
        _ = await waitUntil(seconds: 30) { run.writers.allSatisfy { $0.isReady } }
        return run.writers.filter { $0.isReady }.count
    }

    /// Totals over all subscribers.
    struct SubscriberTotals: Sendable {
        var deliveries = 0
        var bytes = 0
        var reconnects = 0
        var failedAttempts = 0
        var sheddings = 0
        var connected = 0
        var live = 0
    }

    func totals(_ subscribers: [LoadSubscriber]) -> SubscriberTotals {
        var totals = SubscriberTotals()
        for subscriber in subscribers {
            let s = subscriber.snapshot()
            totals.deliveries += s.deliveries
            totals.bytes += s.bytes
            totals.reconnects += s.reconnects
            totals.failedAttempts += s.failedAttempts
            totals.sheddings += s.sheddings
            if s.everConnected { totals.connected += 1 }
            if s.phase == .live { totals.live += 1 }
        }
        return totals
    }

    func writerTotals(_ writers: [LoadWriter]) -> WriterCounters {
        var counters = WriterCounters()
        for writer in writers { counters.add(writer.counters) }
        return counters
    }
}
