import Dispatch
import Foundation
import GoalModel
import GoalReactive
import GoalTestSlots
import Testing

@testable import GoalClient

@Suite("MutationTicket: concurrent starts", .slotted)
struct MutationTicketTests {
    /// Issue 14 point 9: `add` used to read `nextToken` after unlocking, so two concurrent starts could both get the
    /// newer token; disposing both then removed one observer twice and leaked the other. Run under TSan in CI.
    @Test("every concurrently started and disposed producer releases its own observer")
    func concurrentStartsEachReleaseTheirObserver() throws {
        let instance = try #require(ClientInstanceID("ticket-test"))
        let ticket = MutationTicket(id: MutationID(instance: instance, seq: 1))
        let starts = 2_000
        DispatchQueue.concurrentPerform(iterations: starts) { _ in
            let disposable = ticket.producer.start()
            disposable.dispose()
        }
        #expect(ticket.waitingCount == 0)
    }

    @Test("an outcome reaches every producer started before it, once")
    func outcomeReachesEveryStartedProducer() throws {
        let instance = try #require(ClientInstanceID("ticket-test"))
        let ticket = MutationTicket(id: MutationID(instance: instance, seq: 1))
        let received = Counter()
        DispatchQueue.concurrentPerform(iterations: 500) { _ in
            ticket.producer.startWithResult { _ in received.increment() }
        }
        ticket.resolve(.success(MutationAck(id: ticket.id, revision: 3, noop: false)))
        #expect(received.value == 500)
        #expect(ticket.waitingCount == 0)
    }
}

/// A lock-guarded counter. `@unchecked Sendable`: `count` is only touched under `lock`.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
