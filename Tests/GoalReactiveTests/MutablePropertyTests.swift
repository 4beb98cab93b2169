import Dispatch
import GoalTestSlots
import Synchronization
import Testing

@testable import GoalReactive

/// `MutableProperty`: replay, changes, `modify`, deinit completion and thread safety.
@Suite("MutableProperty", .slotted)
struct MutablePropertyTests {
    @Test func producerReplaysCurrentValueThenEveryChange() {
        let property = MutableProperty(0)
        property.value = 1
        var events: [String] = []
        property.producer.start { events.append("\($0)") }
        property.value = 2
        property.value = 2
        #expect(events == ["VALUE 1", "VALUE 2", "VALUE 2"])
        #expect(property.value == 2)
    }

    @Test func signalSendsChangesOnlyIncludingEqualValues() {
        let property = MutableProperty("a")
        var values: [String] = []
        property.signal.observeValues { values.append($0) }
        #expect(values.isEmpty)
        property.value = "b"
        property.value = "b"
        property.value = "c"
        #expect(values == ["b", "b", "c"])
    }

    @Test func modifyIsOneReadModifyWriteWithOneEmissionAndReturnsTheResult() {
        let property = MutableProperty([1])
        var values: [[Int]] = []
        property.signal.observeValues { values.append($0) }
        let count = property.modify { array -> Int in
            array.append(2)
            array.append(3)
            return array.count
        }
        #expect(count == 3)
        #expect(values == [[1, 2, 3]])
        #expect(property.withValue { $0.first } == 1)
        #expect(property.swap([9]) == [1, 2, 3])
        #expect(values == [[1, 2, 3], [9]])
    }

    @Test func deinitCompletesSignalAndProducerAndEndsLifetime() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        weak let weakProperty = property
        var signalEvents: [String] = []
        var producerEvents: [String] = []
        var lifetimeEnded = false
        property?.signal.observe { signalEvents.append("\($0)") }
        property?.producer.start { producerEvents.append("\($0)") }
        property?.lifetime.observeEnded { lifetimeEnded = true }
        let laterProducer = property!.producer
        property?.value = 2
        property = nil
        #expect(weakProperty == nil)
        #expect(signalEvents == ["VALUE 2", "COMPLETED"])
        #expect(producerEvents == ["VALUE 1", "VALUE 2", "COMPLETED"])
        #expect(lifetimeEnded)
        // A producer obtained before deinit and started after it: the last value, then completion.
        var lateEvents: [String] = []
        laterProducer.start { lateEvents.append("\($0)") }
        #expect(lateEvents == ["VALUE 2", "COMPLETED"])
    }

    @Test func observersDoNotKeepThePropertyAlive() {
        var property: MutableProperty<Int>? = MutableProperty(0)
        weak let weakProperty = property
        property?.signal.observeValues { _ in }
        property?.producer.startWithValues { _ in }
        _ = property?.map { $0 + 1 }
        property = nil
        #expect(weakProperty == nil)
    }

    @Test func concurrentModifyIsSerializedWithNoLostUpdateOrEmission() {
        let threads = 8
        let perThread = 2_000
        let property = MutableProperty(0)
        let inFlight = Atomic<Int>(0)
        let maxInFlight = Atomic<Int>(0)
        // Only touched by the observer, which runs under the property's lock; TSan would flag any overlap.
        var emitted: [Int] = []
        property.signal.observeValues { value in
            let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
            _ = maxInFlight.max(now, ordering: .sequentiallyConsistent)
            emitted.append(value)
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread {
                property.modify { $0 += 1 }
            }
        }
        #expect(property.value == threads * perThread)
        #expect(emitted.count == threads * perThread)
        // Each set reached the observer before the next one was applied: emissions are exactly 1, 2, 3, …
        #expect(emitted == Array(1...(threads * perThread)))
        #expect(maxInFlight.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func readingTheValueAndStartingTheProducerInsideAnObserverDoNotDeadlock() {
        let property = MutableProperty(0)
        var seen: [String] = []
        property.signal.observeValues { value in
            seen.append("value \(value) read \(property.value)")
            property.producer.take1 { seen.append("replay \($0)") }
            property.withValue { seen.append("withValue \($0)") }
        }
        property.value = 7
        #expect(seen == ["value 7 read 7", "replay 7", "withValue 7"])
    }

    @Test func propertyWrapperExposesTheValueAndTheProperty() {
        final class Model {
            @MutableProperty var count = 1
        }
        let model = Model()
        var values: [Int] = []
        model.$count.producer.startWithValues { values.append($0) }
        model.count += 1
        #expect(model.count == 2)
        #expect(values == [1, 2])
    }
}

extension SignalProducer where Error == Never {
    /// Starts, takes the first value synchronously, and disposes the start (test helper; no operator library).
    func take1(_ action: (Value) -> Void) {
        var first: Value?
        let disposable = startWithValues { value in if first == nil { first = value } }
        disposable.dispose()
        if let first { action(first) }
    }
}
