import Foundation
package import GoalModel
package import GoalReactive

/// The shared outcome of one mutation: the mutation is created (and queued) once; every start of its producer
/// observes the same outcome, replayed if it already arrived. Starting the producer twice never sends twice.
///
/// `package`: GoalClient's outbox and GoalTestSupport's `InMemoryLeagueStore` share it; it is no public API.
///
/// Threading: thread-safe. `@unchecked Sendable` because `result` and `observers` are guarded by `lock`;
/// observers are called outside the lock.
package final class MutationTicket: @unchecked Sendable {
    package typealias Observer = Signal<MutationAck, MutationError>.Observer

    package let id: MutationID
    private let lock = NSLock()
    private var result: Result<MutationAck, MutationError>?
    private var observers: [UInt64: Observer] = [:]
    private var nextToken: UInt64 = 0

    package init(id: MutationID) {
        self.id = id
    }

    /// A producer that sends the ack (then completes) or fails with the error, for every start.
    package var producer: SignalProducer<MutationAck, MutationError> {
        SignalProducer { observer, lifetime in
            guard let token = self.add(observer) else { return }
            lifetime.observeEnded { self.remove(token) }
        }
    }

    /// Delivers the outcome to every observer, now and later. Only the first call counts.
    package func resolve(_ outcome: Result<MutationAck, MutationError>) {
        lock.lock()
        guard result == nil else {
            lock.unlock()
            return
        }
        result = outcome
        let waiting = observers.values
        observers = [:]
        lock.unlock()
        for observer in waiting { MutationTicket.deliver(outcome, to: observer) }
    }

    private func add(_ observer: Observer) -> UInt64? {
        lock.lock()
        if let result {
            lock.unlock()
            MutationTicket.deliver(result, to: observer)
            return nil
        }
        nextToken += 1
        // Read the token while still holding the lock: another start may bump `nextToken` right after unlock.
        let token = nextToken
        observers[token] = observer
        lock.unlock()
        return token
    }

    /// How many started producers are waiting for the outcome (tests check that disposal releases each one).
    var waitingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return observers.count
    }

    private func remove(_ token: UInt64) {
        lock.lock()
        observers[token] = nil
        lock.unlock()
    }

    private static func deliver(_ outcome: Result<MutationAck, MutationError>, to observer: Observer) {
        switch outcome {
        case .success(let ack):
            observer.send(value: ack)
            observer.sendCompleted()
        case .failure(let error):
            observer.send(error: error)
        }
    }
}
