import Dispatch
import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("scan, reduce, collect", .slotted)
struct ScanCollectTests {
    @Test func scanSendsEveryPartialResult() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 3).scan(10, +))
        #expect(log.all == ["VALUE 11", "VALUE 13", "VALUE 16", "COMPLETED"])
        let (into, _) = record(SignalProducer<Int, Never>(values: 1, 2).scan(into: [Int]()) { $0.append($1) })
        #expect(into.all == ["VALUE [1]", "VALUE [1, 2]", "COMPLETED"])
    }

    @Test func scanStartsOverOnEveryStart() {
        let producer = SignalProducer<Int, Never>(values: 1, 2).scan(0, +)
        let (first, _) = record(producer)
        let (second, _) = record(producer)
        #expect(first.all == ["VALUE 1", "VALUE 3", "COMPLETED"])
        #expect(second.all == first.all)
    }

    @Test func reduceSendsOnlyTheFinalResultOnCompletion() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.reduce(0, +))
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.all.isEmpty)
        input.sendCompleted()
        #expect(log.all == ["VALUE 3", "COMPLETED"])
    }

    @Test func reduceOfNothingSendsTheInitialValue() {
        let (log, _) = record(SignalProducer<Int, Never>.empty.reduce(into: 7) { $0 += $1 })
        #expect(log.all == ["VALUE 7", "COMPLETED"])
    }

    @Test func reduceSendsNothingOnFailure() {
        let (log, _) = record(SignalProducer<Int, TestError>(value: 1).concat(.init(error: .boom)).reduce(0, +))
        #expect(log.all == ["FAILED boom"])
    }

    @Test func collectSendsOneArrayOnCompletion() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 3).collect())
        #expect(log.all == ["VALUE [1, 2, 3]", "COMPLETED"])
        let (empty, _) = record(SignalProducer<Int, Never>.empty.collect())
        #expect(empty.all == ["VALUE []", "COMPLETED"])
        let (failed, _) = record(SignalProducer<Int, TestError>(value: 1).concat(.init(error: .boom)).collect())
        #expect(failed.all == ["FAILED boom"])
    }

    @Test func collectCountSendsFullArraysThenTheRemainder() {
        let (log, _) = record(SignalProducer<Int, Never>(1...5).collect(count: 2))
        #expect(log.all == ["VALUE [1, 2]", "VALUE [3, 4]", "VALUE [5]", "COMPLETED"])
        let (exact, _) = record(SignalProducer<Int, Never>(1...4).collect(count: 2))
        #expect(exact.all == ["VALUE [1, 2]", "VALUE [3, 4]", "COMPLETED"])
        let (empty, _) = record(SignalProducer<Int, Never>.empty.collect(count: 2))
        #expect(empty.all == ["VALUE []", "COMPLETED"])
    }

    @Test func collectWithPredicates() {
        let (sums, _) = record(SignalProducer<Int, Never>(values: 1, 2, 3, 4, 1).collect { $0.reduce(0, +) >= 3 })
        #expect(sums.all == ["VALUE [1, 2]", "VALUE [3]", "VALUE [4]", "VALUE [1]", "COMPLETED"])
        let (runs, _) = record(
            SignalProducer<Int, Never>(values: 1, 1, 2, 2, 2, 3).collect { !$0.isEmpty && $0.last != $1 }
        )
        #expect(runs.all == ["VALUE [1, 1]", "VALUE [2, 2, 2]", "VALUE [3]", "COMPLETED"])
    }

    @Test func collectEverySendsPeriodically() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.collect(every: .seconds(1), on: scheduler, skipEmpty: true))
        input.send(value: 1)
        input.send(value: 2)
        scheduler.advance(by: 1)
        #expect(log.all == ["VALUE [1, 2]"])
        scheduler.advance(by: 1)
        #expect(log.all == ["VALUE [1, 2]"])
        input.send(value: 3)
        input.sendCompleted()
        scheduler.advance()
        #expect(log.all == ["VALUE [1, 2]", "COMPLETED"])
    }

    @Test func collectEveryKeepsTheLastBatchWhenAsked() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.collect(every: .seconds(1), on: scheduler, discardWhenCompleted: false))
        scheduler.advance(by: 1)
        input.send(value: 3)
        input.sendCompleted()
        scheduler.advance(by: 0.5)
        #expect(log.all == ["VALUE []"])
        scheduler.advance(by: 0.5)
        #expect(log.all == ["VALUE []", "VALUE [3]", "COMPLETED"])
    }
}
