import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("debounce (virtual time)", .slotted)
struct DebounceTests {
    @Test func sendsTheLatestValueOnceTheIntervalPassedWithoutNewValues() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.debounce(1, on: scheduler))
        input.send(value: 1)
        scheduler.advance(by: 0.5)
        input.send(value: 2)
        scheduler.advance(by: 0.9)
        #expect(log.all.isEmpty)
        scheduler.advance(by: 0.1)
        #expect(log.all == ["VALUE 2"])
        input.send(value: 3)
        scheduler.advance(by: 1)
        #expect(log.all == ["VALUE 2", "VALUE 3"])
    }

    @Test func completionDiscardsThePendingValueByDefault() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.debounce(1, on: scheduler))
        input.send(value: 1)
        input.sendCompleted()
        #expect(log.all.isEmpty)  // delivered on the scheduler
        scheduler.advance()
        #expect(log.all == ["COMPLETED"])
        scheduler.run()
        #expect(log.all == ["COMPLETED"])
    }

    @Test func completionKeepsThePendingValueWhenAsked() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.debounce(1, on: scheduler, discardWhenCompleted: false))
        input.send(value: 1)
        scheduler.advance(by: 0.5)
        input.sendCompleted()
        scheduler.advance(by: 0.4)
        #expect(log.all.isEmpty)
        scheduler.advance(by: 0.1)
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func completionWithoutPendingValueCompletesOnTheNextTurn() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.debounce(1, on: scheduler, discardWhenCompleted: false))
        input.send(value: 1)
        scheduler.advance(by: 1)
        input.sendCompleted()
        #expect(log.all == ["VALUE 1"])
        scheduler.advance()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func failureIsDeliveredOnTheNextTurnAndDropsThePendingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.debounce(1, on: scheduler, discardWhenCompleted: false))
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all.isEmpty)
        scheduler.run()
        #expect(log.all == ["FAILED boom"])
    }

    @Test func disposingTheProducerCancelsThePendingValueAndInterruptsUpstream() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, Never>()
        let (log, disposable) = record(probe.producer.debounce(1, on: scheduler))
        probe.last.send(value: 1)
        disposable.dispose()
        scheduler.run()
        #expect(log.all == ["INTERRUPTED"])
        #expect(probe.endedStarts == 1)
    }
}
