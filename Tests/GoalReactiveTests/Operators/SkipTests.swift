import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("skip(first:), skip(while:), skip(until:)", .slotted)
struct SkipTests {
    @Test func skipFirstDropsTheLeadingValues() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 3, 4).skip(first: 2))
        #expect(log.all == ["VALUE 3", "VALUE 4", "COMPLETED"])
        let (none, _) = record(SignalProducer<Int, Never>(values: 1).skip(first: 0))
        #expect(none.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func skipFirstForwardsAnEarlyFailure() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.skip(first: 3))
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all == ["FAILED boom"])
    }

    @Test func skipWhileForwardsEverythingFromTheFirstFailingValueOn() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 5, 1, 6).skip(while: { $0 < 3 }))
        #expect(log.all == ["VALUE 5", "VALUE 1", "VALUE 6", "COMPLETED"])
    }

    @Test func skipUntilDropsValuesUntilTheTriggerFires() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (trigger, fire) = Signal<(), Never>.pipe()
        let log = record(signal.skip(until: trigger))
        input.send(value: 1)
        fire.send(value: ())
        input.send(value: 2)
        fire.send(value: ())
        input.send(value: 3)
        input.sendCompleted()
        #expect(log.all == ["VALUE 2", "VALUE 3", "COMPLETED"])
    }

    @Test func skipUntilIgnoresTheTriggersInterruption() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (trigger, fire) = Signal<(), Never>.pipe()
        let log = record(signal.skip(until: trigger))
        fire.sendInterrupted()
        input.send(value: 1)
        input.sendCompleted()
        #expect(log.all == ["COMPLETED"])
    }

    @Test func skipUntilASynchronousTriggerProducerLetsEverythingThrough() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2).skip(until: .init(value: ())))
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }
}
