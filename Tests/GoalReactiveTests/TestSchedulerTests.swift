import Dispatch
import Foundation
import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("TestScheduler", .slotted)
struct TestSchedulerTests {
    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        #expect(log.isEmpty)
        scheduler.advance()
        #expect(log == ["now"])
    }

    @Test func runsInDateOrderAndEqualDatesInSchedulingOrder() {
        let scheduler = TestScheduler()
        let start = scheduler.currentDate
        var log: [String] = []
        scheduler.schedule(after: start.addingTimeInterval(2)) { log.append("2s a") }
        scheduler.schedule(after: start.addingTimeInterval(1)) { log.append("1s") }
        scheduler.schedule(after: start.addingTimeInterval(2)) { log.append("2s b") }
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: .milliseconds(1_500)) { log.append("1.5s") }
        scheduler.advance(by: .seconds(1))
        #expect(log == ["now", "1s"])
        scheduler.advance(by: 1.0)
        #expect(log == ["now", "1s", "1.5s", "2s a", "2s b"])
    }

    @Test func currentDateIsTheActionsDateWhileItRuns() {
        let scheduler = TestScheduler(startDate: Date(timeIntervalSinceReferenceDate: 100))
        var seen: [TimeInterval] = []
        scheduler.schedule(after: .seconds(3)) { seen.append(scheduler.currentDate.timeIntervalSinceReferenceDate) }
        scheduler.advance(by: .seconds(10))
        #expect(seen == [103])
        #expect(scheduler.currentDate == Date(timeIntervalSinceReferenceDate: 110))
    }

    @Test func actionsScheduledDuringAnAdvanceRunInItWhenDue() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: .seconds(1)) {
            log.append("1s")
            scheduler.schedule(after: .seconds(1)) { log.append("2s") }
            scheduler.schedule(after: .seconds(5)) { log.append("6s") }
        }
        scheduler.advance(by: .seconds(3))
        #expect(log == ["1s", "2s"])
        scheduler.advance(to: scheduler.currentDate.addingTimeInterval(3))
        #expect(log == ["1s", "2s", "6s"])
    }

    @Test func disposingCancelsAPendingAction() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let disposable = scheduler.schedule { log.append("cancelled") }
        scheduler.schedule { log.append("kept") }
        disposable?.dispose()
        scheduler.advance()
        #expect(log == ["kept"])
    }

    @Test func repeatingActionsFireEveryIntervalUntilDisposed() {
        let scheduler = TestScheduler()
        let start = scheduler.currentDate
        var fired: [TimeInterval] = []
        let disposable = scheduler.schedule(after: start.addingTimeInterval(1), interval: .seconds(2)) {
            fired.append(scheduler.currentDate.timeIntervalSince(start))
        }
        scheduler.advance(by: .seconds(6))
        #expect(fired == [1, 3, 5])
        disposable?.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(fired == [1, 3, 5])
    }

    @Test func runExecutesEverythingAndEndsInTheDistantFuture() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: .seconds(1_000_000)) { log.append("far") }
        scheduler.schedule { log.append("near") }
        scheduler.run()
        #expect(log == ["near", "far"])
        #expect(scheduler.currentDate == .distantFuture)
    }

    @Test func rewindMovesTheClockBackWithoutRunningAnything() {
        let scheduler = TestScheduler()
        let start = scheduler.currentDate
        var log: [String] = []
        scheduler.advance(by: .seconds(5))
        scheduler.rewind(by: .seconds(2))
        #expect(scheduler.currentDate == start.addingTimeInterval(3))
        scheduler.schedule(after: .seconds(1)) { log.append("at 4s") }
        scheduler.advance(by: .seconds(1))
        #expect(log == ["at 4s"])
        #expect(scheduler.currentDate == start.addingTimeInterval(4))
    }

    @Test func driveTimeBasedSignalsDeterministically() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        // A hand-written delay, as an operator would use a DateScheduler.
        signal.observeValues { value in
            scheduler.schedule(after: .seconds(value)) {
                log.append("\(value) at \(Int(scheduler.currentDate.timeIntervalSinceReferenceDate))")
            }
        }
        input.send(value: 3)
        input.send(value: 1)
        scheduler.advance(by: .seconds(2))
        #expect(log == ["1 at 1"])
        scheduler.advance(by: .seconds(2))
        #expect(log == ["1 at 1", "3 at 3"])
    }
}
