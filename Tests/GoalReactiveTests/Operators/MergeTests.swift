import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("merge", .slotted)
struct MergeTests {
    @Test func interleavesValuesInArrivalOrderAndCompletesWhenAllComplete() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.merge(a, b))
        inputA.send(value: 1)
        inputB.send(value: 2)
        inputA.sendCompleted()
        inputB.send(value: 3)
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3"])
        inputB.sendCompleted()
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3", "COMPLETED"])
    }

    @Test func anInputInterruptionCountsAsItsCompletion() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(a.merge(with: b))
        inputA.sendInterrupted()
        inputB.send(value: 1)
        inputB.sendCompleted()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func aFailureIsForwardedAtOnce() {
        let (a, inputA) = Signal<Int, TestError>.pipe()
        let (b, inputB) = Signal<Int, TestError>.pipe()
        let log = record(Signal.merge([a, b]))
        inputA.send(error: .boom)
        inputB.send(value: 1)
        #expect(log.all == ["FAILED boom"])
    }

    @Test func producersAreStartedInOrder() {
        let (log, _) = record(
            SignalProducer.merge(SignalProducer<Int, Never>(values: 1, 2), .init(value: 3), .init(values: 4, 5))
        )
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3", "VALUE 4", "VALUE 5", "COMPLETED"])
    }

    @Test func disposingInterruptsEveryInputStart() {
        let a = ProducerProbe<Int, Never>()
        let b = ProducerProbe<Int, Never>()
        let (log, disposable) = record(a.producer.merge(with: b.producer))
        b.last.send(value: 2)
        a.last.send(value: 1)
        disposable.dispose()
        #expect(log.all == ["VALUE 2", "VALUE 1", "INTERRUPTED"])
        #expect(a.endedStarts == 1 && b.endedStarts == 1)
    }

    @Test func aProducerFailureInterruptsTheOthers() {
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let (log, _) = record(SignalProducer.merge([a.producer, b.producer]))
        a.last.send(error: .other)
        #expect(log.all == ["FAILED other"])
        #expect(b.endedStarts == 1)
    }
}
