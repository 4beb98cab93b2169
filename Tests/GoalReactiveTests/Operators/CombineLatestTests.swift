import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("combineLatest", .slotted)
struct CombineLatestTests {
    @Test func sendsOnlyAfterEveryInputHasSentThenOnEveryValue() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<String, Never>.pipe()
        let log = record(a.combineLatest(with: b).map { "\($0.0)\($0.1)" })
        inputA.send(value: 1)
        inputA.send(value: 2)
        #expect(log.all.isEmpty)
        inputB.send(value: "a")
        inputA.send(value: 3)
        inputB.send(value: "b")
        #expect(log.all == ["VALUE 2a", "VALUE 3a", "VALUE 3b"])
    }

    @Test func completesOnlyWhenAllInputsCompleted() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.combineLatest(a, b).map { "\($0.0)-\($0.1)" })
        inputA.send(value: 1)
        inputB.send(value: 2)
        inputA.sendCompleted()
        inputB.send(value: 3)
        #expect(log.all == ["VALUE 1-2", "VALUE 1-3"])
        inputB.sendCompleted()
        #expect(log.all == ["VALUE 1-2", "VALUE 1-3", "COMPLETED"])
    }

    @Test func anInputCompletingWithoutAValueMeansNothingIsEverSent() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(Signal.combineLatest(a, b).map { "\($0.0)-\($0.1)" })
        inputA.sendCompleted()
        inputB.send(value: 1)
        #expect(log.all.isEmpty)
        inputB.sendCompleted()
        #expect(log.all == ["COMPLETED"])
    }

    @Test func failureAndInterruptionAreForwardedAtOnce() {
        let (a, inputA) = Signal<Int, TestError>.pipe()
        let (b, inputB) = Signal<Int, TestError>.pipe()
        let failing = record(Signal.combineLatest(a, b).map { $0.0 })
        inputA.send(error: .boom)
        inputB.send(value: 1)
        #expect(failing.all == ["FAILED boom"])

        let (c, inputC) = Signal<Int, TestError>.pipe()
        let (d, inputD) = Signal<Int, TestError>.pipe()
        let interrupted = record(c.combineLatest(with: d).map { $0.0 })
        inputC.sendInterrupted()
        inputD.send(value: 1)
        #expect(interrupted.all == ["INTERRUPTED"])
    }

    @Test func threeAndFourInputsAndSequences() {
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let (c, inputC) = Signal<Int, Never>.pipe()
        let (d, inputD) = Signal<Int, Never>.pipe()
        let three = record(Signal.combineLatest(a, b, c).map { "\($0.0)\($0.1)\($0.2)" })
        let four = record(Signal.combineLatest(a, b, c, d).map { "\($0.0)\($0.1)\($0.2)\($0.3)" })
        let array = record(Signal.combineLatest([a, b, c, d]))
        inputA.send(value: 1)
        inputB.send(value: 2)
        inputC.send(value: 3)
        inputD.send(value: 4)
        inputD.send(value: 5)
        #expect(three.all == ["VALUE 123"])
        #expect(four.all == ["VALUE 1234", "VALUE 1235"])
        #expect(array.all == ["VALUE [1, 2, 3, 4]", "VALUE [1, 2, 3, 5]"])
    }

    @Test func emptySequencesComplete() {
        let signalLog = record(Signal<Int, Never>.combineLatest([Signal<Int, Never>]()))
        #expect(signalLog.all == ["INTERRUPTED"])  // already completed when observed
        let (producerLog, _) = record(SignalProducer<Int, Never>.combineLatest([SignalProducer<Int, Never>]()))
        #expect(producerLog.all == ["COMPLETED"])
    }

    @Test func producersAreStartedInArgumentOrder() {
        let order = Log<String>()
        func producer(_ name: String, _ value: Int) -> SignalProducer<Int, Never> {
            SignalProducer { observer, _ in
                order.append(name)
                observer.send(value: value)
                observer.sendCompleted()
            }
        }
        let (log, _) = record(
            SignalProducer.combineLatest(producer("a", 1), producer("b", 2), producer("c", 3)).map {
                "\($0.0)\($0.1)\($0.2)"
            }
        )
        #expect(order.all == ["a", "b", "c"])
        #expect(log.all == ["VALUE 123", "COMPLETED"])
    }

    @Test func synchronousProducersCombineTheLastValueOfEarlierOnes() {
        let (log, _) = record(
            SignalProducer<Int, Never>(values: 1, 2).combineLatest(with: SignalProducer<Int, Never>(values: 10, 20)).map
            { $0.0 + $0.1 }
        )
        #expect(log.all == ["VALUE 12", "VALUE 22", "COMPLETED"])
    }

    @Test func disposingInterruptsEveryInputStart() {
        let a = ProducerProbe<Int, Never>()
        let b = ProducerProbe<Int, Never>()
        let (log, disposable) = record(a.producer.combineLatest(with: b.producer).map { $0.0 + $0.1 })
        a.last.send(value: 1)
        b.last.send(value: 2)
        disposable.dispose()
        a.last.send(value: 5)
        #expect(log.all == ["VALUE 3", "INTERRUPTED"])
        #expect(a.endedStarts == 1 && b.endedStarts == 1)
    }

    @Test func anInputFailureInterruptsTheOtherInputStarts() {
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let (log, _) = record(SignalProducer.combineLatest([a.producer, b.producer]))
        b.last.send(error: .boom)
        #expect(log.all == ["FAILED boom"])
        #expect(a.endedStarts == 1 && b.endedStarts == 1)
    }
}
