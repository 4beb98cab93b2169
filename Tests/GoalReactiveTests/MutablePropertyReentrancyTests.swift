import Dispatch
import Foundation
import GoalTestSlots
import Testing

@testable import GoalReactive

/// Setting a property from inside its own observer: ReactiveSwift 7.2.1's nested, depth-first delivery, and the
/// `Signal.unserializedPipe()` it rests on.
@Suite("MutableProperty re-entrancy and unserialized pipes", .slotted)
struct MutablePropertyReentrancyTests {
    @Test func nestedSetIsDeliveredDepthFirstToLaterObservers() {
        let property = MutableProperty(0)
        var seenByA: [Int] = []
        var seenByB: [Int] = []
        property.signal.observeValues { value in
            seenByA.append(value)
            if value == 1 { property.value = 2 }
        }
        property.signal.observeValues { seenByB.append($0) }
        property.value = 1
        #expect(seenByA == [1, 2])
        #expect(seenByB == [2, 1])
        #expect(property.value == 2)
    }

    @Test func nestedSetThroughProducerSubscribers() {
        let property = MutableProperty(0)
        var seenByA: [Int] = []
        var seenByB: [Int] = []
        property.producer.startWithValues { value in
            seenByA.append(value)
            if value == 1 { property.value = 2 }
        }
        property.producer.startWithValues { seenByB.append($0) }
        property.value = 1
        #expect(seenByA == [0, 1, 2])
        #expect(seenByB == [0, 2, 1])
        #expect(property.value == 2)
    }

    @Test func setDuringTheInitialReplayIsNotObservedByThatSubscriber() {
        let property = MutableProperty(0)
        var seen: [Int] = []
        property.producer.startWithValues { value in
            seen.append(value)
            if value == 0 { property.value = 1 }
        }
        #expect(seen == [0])
        #expect(property.value == 1)
        property.value = 2
        #expect(seen == [0, 2])
    }

    @Test func unserializedPipeDeliversReentrantValuesNestedWhilePipeQueuesThem() {
        let (nested, nestedInput) = Signal<Int, Never>.unserializedPipe()
        let (queued, queuedInput) = Signal<Int, Never>.pipe()
        var log: [String] = []
        for (name, signal, input) in [("nested", nested, nestedInput), ("queued", queued, queuedInput)] {
            signal.observeValues { value in
                log.append("\(name) A \(value)")
                if value == 1 { input.send(value: 2) }
            }
            signal.observeValues { log.append("\(name) B \($0)") }
            input.send(value: 1)
        }
        #expect(
            log == [
                "nested A 1", "nested A 2", "nested B 2", "nested B 1",
                "queued A 1", "queued B 1", "queued A 2", "queued B 2",
            ]
        )
    }

    @Test func unserializedPipeNestedTerminalEventEndsTheInterruptedDelivery() {
        let (signal, input) = Signal<Int, Never>.unserializedPipe()
        var log: [String] = []
        var lifetimeEnded = false
        signal.observe { event in
            log.append("A \(event)")
            if event.value == 1 { input.sendCompleted() }
        }
        signal.observe { log.append("B \($0)") }
        signal.observeLifetimeEnd { lifetimeEnded = true }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log == ["A VALUE 1", "A COMPLETED", "B COMPLETED"])
        #expect(lifetimeEnded)
        var late: [String] = []
        #expect(signal.observe { late.append("\($0)") } == nil)
        #expect(late == ["INTERRUPTED"])
    }

    @Test func unserializedPipeObserverListIsThreadSafe() {
        let (signal, input) = Signal<Int, Never>.unserializedPipe()
        let senderLock = NSLockBox()
        let received = Log<Int>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 {
                if thread == 0 {
                    senderLock.withLock { input.send(value: index) }
                } else {
                    let disposable = signal.observeValues { received.append($0) }
                    disposable?.dispose()
                }
            }
        }
        // A permanent observer added afterwards sees the next value exactly once.
        let last = Log<Int>()
        signal.observeValues { last.append($0) }
        senderLock.withLock { input.send(value: 999) }
        #expect(last.all == [999])
    }

    @Test func inputObserverDeinitInterruptsAnUnserializedSignal() {
        var log: [String] = []
        var input: Signal<Int, Never>.Observer?
        let signal: Signal<Int, Never>
        (signal, input) = Signal<Int, Never>.unserializedPipe()
        signal.observe { log.append("\($0)") }
        input?.send(value: 1)
        input = nil
        #expect(log == ["VALUE 1", "INTERRUPTED"])
    }
}

extension Signal {
    /// Registers `action` on this signal's lifetime (test helper).
    fileprivate func observeLifetimeEnd(_ action: @escaping () -> Void) {
        core.lifetime.observeEnded(action)
    }
}

/// A lock usable from `@Sendable` closures (test helper).
final class NSLockBox: @unchecked Sendable {
    // `@unchecked Sendable`: NSLock is thread-safe.
    private let lock = NSLock()

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
