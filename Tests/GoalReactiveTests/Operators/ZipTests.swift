import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("zip", .slotted)
struct ZipTests {
    @Test func pairsValuesByPosition() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<String, Never>.pipe()
        let log = record(a.zip(with: b).map { "\($0.0)\($0.1)" })
        inputA.send(value: 1)
        inputA.send(value: 2)
        inputA.send(value: 3)
        #expect(log.all.isEmpty)
        inputB.send(value: "a")
        inputB.send(value: "b")
        #expect(log.all == ["VALUE 1a", "VALUE 2b"])
    }

    @Test func completesWhenACompletedInputsBufferIsDrained() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.zip(a, b).map { "\($0.0)-\($0.1)" })
        inputA.send(value: 1)
        inputA.send(value: 2)
        inputA.sendCompleted()
        #expect(log.all.isEmpty)
        inputB.send(value: 10)
        #expect(log.all == ["VALUE 1-10"])
        inputB.send(value: 20)
        #expect(log.all == ["VALUE 1-10", "VALUE 2-20", "COMPLETED"])
    }

    @Test func completesAtOnceWhenAnInputCompletesWithAnEmptyBuffer() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.zip(a, b).map { "\($0.0)-\($0.1)" })
        inputB.send(value: 10)
        inputB.send(value: 20)
        inputA.sendCompleted()
        #expect(log.all == ["COMPLETED"])
        _ = inputB
    }

    @Test func doesNotCompleteWhileTheCompletedInputStillHasBufferedValues() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.zip([a, b]))
        inputA.send(value: 1)
        inputA.sendCompleted()
        inputB.sendInterrupted()
        #expect(log.all == ["INTERRUPTED"])
    }

    @Test func failureIsForwardedAtOnce() {
        let (a, inputA) = Signal<Int, TestError>.pipe()
        let (b, inputB) = Signal<Int, TestError>.pipe()
        let log = record(Signal.zip(a, b).map { $0.0 + $0.1 })
        inputA.send(value: 1)
        inputB.send(error: .boom)
        #expect(log.all == ["FAILED boom"])
    }

    @Test func threeInputsAndProducers() {
        let (log, _) = record(
            SignalProducer.zip(
                SignalProducer<Int, Never>(values: 1, 2, 3),
                SignalProducer<String, Never>(values: "a", "b"),
                SignalProducer<Bool, Never>(values: true, false, true)
            )
            .map { "\($0.0)\($0.1)\($0.2)" }
        )
        #expect(log.all == ["VALUE 1atrue", "VALUE 2bfalse", "COMPLETED"])
    }

    @Test func producerZipWithSignal() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2).zip(with: signal).map { $0.0 * $0.1 })
        input.send(value: 10)
        input.send(value: 100)
        #expect(log.all == ["VALUE 10", "VALUE 200", "COMPLETED"])
    }

    @Test func disposingInterruptsEveryInputStart() {
        let a = ProducerProbe<Int, Never>()
        let b = ProducerProbe<Int, Never>()
        let (log, disposable) = record(a.producer.zip(with: b.producer).map { $0.0 + $0.1 })
        a.last.send(value: 1)
        disposable.dispose()
        #expect(log.all == ["INTERRUPTED"])
        #expect(a.endedStarts == 1 && b.endedStarts == 1)
    }
}
