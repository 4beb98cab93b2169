import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("withLatest(from:)", .slotted)
struct WithLatestTests {
    @Test func pairsWithTheLatestSampleAndDropsValuesBeforeTheFirstSample() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (samplee, sample) = Signal<String, Never>.pipe()
        let log = record(signal.withLatest(from: samplee).map { "\($0.0)\($0.1)" })
        input.send(value: 1)
        sample.send(value: "a")
        sample.send(value: "b")
        input.send(value: 2)
        input.send(value: 3)
        #expect(log.all == ["VALUE 2b", "VALUE 3b"])
    }

    @Test func ignoresTheSampleesTerminationAndEndsWithSelf() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (samplee, sample) = Signal<String, Never>.pipe()
        let log = record(signal.withLatest(from: samplee).map { "\($0.0)\($0.1)" })
        sample.send(value: "a")
        sample.sendCompleted()
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all == ["VALUE 1a", "FAILED boom"])
    }

    @Test func producerSampleeIsStartedFirstAndInterruptedWithTheResult() {
        let samplee = ProducerProbe<String, Never>()
        let source = ProducerProbe<Int, Never>()
        let (log, disposable) = record(source.producer.withLatest(from: samplee.producer).map { "\($0.0)\($0.1)" })
        samplee.last.send(value: "x")
        source.last.send(value: 1)
        disposable.dispose()
        #expect(log.all == ["VALUE 1x", "INTERRUPTED"])
        #expect(samplee.endedStarts == 1 && source.endedStarts == 1)
    }

    @Test func synchronousProducerSampleeProvidesItsLastValue() {
        let (log, _) = record(
            SignalProducer<Int, Never>(values: 1, 2).withLatest(from: SignalProducer<String, Never>(values: "a", "b"))
                .map { "\($0.0)\($0.1)" }
        )
        #expect(log.all == ["VALUE 1b", "VALUE 2b", "COMPLETED"])
    }
}
