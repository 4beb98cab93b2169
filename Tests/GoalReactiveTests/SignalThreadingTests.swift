import Dispatch
import GoalTestSlots
import Synchronization
import Testing

@testable import GoalReactive

/// Serial delivery under concurrency, and re-entrant sends.
@Suite("Signal threading and re-entrancy", .slotted)
struct SignalThreadingTests {
    @Test func concurrentSendsAreDeliveredSeriallyWithNoneLost() {
        let threads = 8
        let perThread = 10_000
        let (signal, input) = Signal<Int, Never>.pipe()
        let inFlight = Atomic<Int>(0)
        let maxInFlight = Atomic<Int>(0)
        // Only touched by the (serialized) observer; TSan would flag any overlap.
        var received: [Int] = []
        received.reserveCapacity(threads * perThread)
        signal.observeValues { value in
            let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            _ = maxInFlight.max(now, ordering: .sequentiallyConsistent)
            received.append(value)
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                input.send(value: thread * perThread + index)
            }
        }
        #expect(maxInFlight.load(ordering: .sequentiallyConsistent) == 1)
        #expect(received.count == threads * perThread)
        #expect(Set(received).count == threads * perThread)
        // Each sender's values arrive in the order that sender sent them.
        for thread in 0..<threads {
            let fromThread = received.filter { $0 / perThread == thread }
            #expect(fromThread == Array(thread * perThread..<(thread + 1) * perThread))
        }
    }

    @Test func terminalEventRacingWithValuesIsDeliveredExactlyOnceAndLast() {
        for _ in 0..<50 {
            let (signal, input) = Signal<Int, Never>.pipe()
            let log = Log<String>()
            signal.observe { log.append($0.isTerminating ? "\($0)" : "value") }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<200 {
                    if thread == 0 && index == 100 {
                        input.sendCompleted()
                    } else {
                        input.send(value: index)
                    }
                }
            }
            let events = log.all
            #expect(events.filter { $0 != "value" } == ["COMPLETED"])
            #expect(events.last == "COMPLETED")
        }
    }

    @Test func terminalSendDoesNotBlockWhileAnotherThreadDelivers() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        let terminalSendReturned = DispatchSemaphore(value: 0)
        let result = Log<Bool>()
        signal.observe { event in
            log.append("\(event)")
            if event == .value(1) {
                DispatchQueue.global().async {
                    input.sendCompleted()
                    terminalSendReturned.signal()
                }
                // Still inside the delivery of VALUE 1: the completion must not wait for us.
                result.append(terminalSendReturned.wait(timeout: .now() + 10) == .success)
                log.append("delivery of 1 finished")
            }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(result.all == [true])
        #expect(log.all == ["VALUE 1", "delivery of 1 finished", "COMPLETED"])
    }

    @Test func reentrantValueIsDeliveredAfterTheCurrentEventReachedAllObservers() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        signal.observeValues { value in
            log.append("A \(value)")
            if value == 1 {
                input.send(value: 2)
                input.send(value: 3)
                log.append("A sent 2 and 3")
            }
        }
        signal.observeValues { log.append("B \($0)") }
        input.send(value: 1)
        log.append("send(1) returned")
        #expect(log == ["A 1", "A sent 2 and 3", "B 1", "A 2", "B 2", "A 3", "B 3", "send(1) returned"])
    }

    @Test func reentrantTerminalEventIsDeferredUntilQueuedValuesAreDelivered() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        signal.observe { event in
            log.append("A \(event)")
            if event == .value(1) {
                input.send(value: 2)
                input.sendCompleted()
                input.send(value: 3)  // after the terminal event: dropped
            }
        }
        signal.observe { log.append("B \($0)") }
        input.send(value: 1)
        #expect(log == ["A VALUE 1", "B VALUE 1", "A VALUE 2", "B VALUE 2", "A COMPLETED", "B COMPLETED"])
    }

    @Test func reentrantSendFromATerminalEventIsDropped() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        signal.observe { event in
            log.append("\(event)")
            input.send(value: 9)
            input.sendInterrupted()
        }
        input.sendCompleted()
        #expect(log == ["COMPLETED"])
    }

    @Test func observingFromAnotherThreadDuringDeliveryDoesNotDeadlock() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Log<String>()
        signal.observeValues { value in
            log.append("A \(value)")
            if value == 1 {
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    signal.observeValues { log.append("B \($0)") }
                }
                group.wait()
            }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all == ["A 1", "A 2", "B 2"])
    }
}
