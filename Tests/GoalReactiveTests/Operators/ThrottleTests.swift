import Dispatch
import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("throttle (virtual time)", .slotted)
struct ThrottleTests {
    @Test func theFirstValueArrivesOnTheNextTurn() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.throttle(1, on: scheduler))
        input.send(value: 1)
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(log.all == ["VALUE 1"])
    }

    @Test func sendsAtMostOneValuePerIntervalKeepingTheLatest() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.throttle(1, on: scheduler))
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        input.send(value: 3)
        scheduler.advance(by: 0.5)
        #expect(log.all == ["VALUE 1"])
        scheduler.advance(by: 0.5)
        #expect(log.all == ["VALUE 1", "VALUE 3"])
        scheduler.advance(by: 5)
        input.send(value: 4)
        scheduler.advance()
        #expect(log.all == ["VALUE 1", "VALUE 3", "VALUE 4"])
    }

    @Test func terminalEventsAreDeliveredOnTheNextTurnAndDropThePendingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.throttle(1, on: scheduler))
        input.send(value: 1)
        scheduler.advance()
        input.send(value: 2)
        input.sendCompleted()
        #expect(log.all == ["VALUE 1"])
        scheduler.run()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func rewindingTheClockDoesNotHoldValuesBack() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.throttle(1, on: scheduler))
        scheduler.advance(by: 10)
        input.send(value: 1)
        scheduler.advance()
        scheduler.rewind(by: .seconds(5))
        input.send(value: 2)
        scheduler.advance()
        #expect(log.all == ["VALUE 1", "VALUE 2"])
    }
}
