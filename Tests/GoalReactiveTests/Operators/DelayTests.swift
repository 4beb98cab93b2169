import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("delay, timeout (virtual time)", .slotted)
struct DelayTests {
    @Test func delaysValuesAndCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.delay(2, on: scheduler))
        input.send(value: 1)
        scheduler.advance(by: 1)
        input.send(value: 2)
        input.sendCompleted()
        scheduler.advance(by: 0.9)
        #expect(log.all.isEmpty)
        scheduler.advance(by: 0.1)
        #expect(log.all == ["VALUE 1"])
        scheduler.advance(by: 1)
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func failureIsScheduledWithoutTheDelayAndOvertakesValues() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.delay(2, on: scheduler))
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(log.all == ["FAILED boom"])
        scheduler.run()
        #expect(log.all == ["FAILED boom"])
    }

    @Test func disposingTheProducerDropsDelayedValues() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, Never>()
        let (log, disposable) = record(probe.producer.delay(1, on: scheduler))
        probe.last.send(value: 1)
        disposable.dispose()
        scheduler.run()
        #expect(log.all == ["INTERRUPTED"])
        #expect(probe.endedStarts == 1)
    }

    @Test func timeoutFailsWhenTheIntervalPassesFirst() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, TestError>()
        let (log, _) = record(probe.producer.timeout(after: 2, raising: .other, on: scheduler))
        probe.last.send(value: 1)
        scheduler.advance(by: 1.9)
        #expect(log.all == ["VALUE 1"])
        scheduler.advance(by: 0.1)
        #expect(log.all == ["VALUE 1", "FAILED other"])
        #expect(probe.endedStarts == 1)
    }

    @Test func timeoutDoesNothingWhenTheSourceTerminatesInTime() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.timeout(after: 2, raising: TestError.boom, on: scheduler))
        input.send(value: 1)
        input.sendCompleted()
        scheduler.run()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }
}
