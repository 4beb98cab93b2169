import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("skipRepeats, combinePrevious", .slotted)
struct SkipRepeatsTests {
    @Test func skipRepeatsDropsConsecutiveDuplicatesOnly() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 1, 2, 2, 2, 1, 3, 3))
        let (skipped, _) = record(SignalProducer<Int, Never>(values: 1, 1, 2, 2, 2, 1, 3, 3).skipRepeats())
        #expect(log.all.count == 9)
        #expect(skipped.all == ["VALUE 1", "VALUE 2", "VALUE 1", "VALUE 3", "COMPLETED"])
    }

    @Test func skipRepeatsComparesWithTheImmediatelyPrecedingReceivedValue() {
        // |a - b| <= 1 counts as a repeat: 1, 2 (repeat of 1), 3 (repeat of 2, although 3 - 1 == 2) → only 1.
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.skipRepeats { abs($0 - $1) <= 1 })
        for value in [1, 2, 3, 10, 11, 5] { input.send(value: value) }
        #expect(log.all == ["VALUE 1", "VALUE 10", "VALUE 5"])
    }

    @Test func skipRepeatsForwardsTheFirstValueAndTerminalEvents() {
        let (signal, input) = Signal<String, TestError>.pipe()
        let log = record(signal.skipRepeats())
        input.send(value: "a")
        input.send(value: "a")
        input.send(error: .boom)
        #expect(log.all == ["VALUE a", "FAILED boom"])
    }

    @Test func skipRepeatsStateIsPerStart() {
        let producer = SignalProducer<Int, Never>(values: 1, 1, 2).skipRepeats()
        let (first, _) = record(producer)
        let (second, _) = record(producer)
        #expect(first.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
        #expect(second.all == first.all)
    }

    @Test func combinePreviousWithInitialPairsEveryValue() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 3).combinePrevious(0).map { "\($0.0)-\($0.1)" })
        #expect(log.all == ["VALUE 0-1", "VALUE 1-2", "VALUE 2-3", "COMPLETED"])
    }

    @Test func combinePreviousWithoutInitialSwallowsTheFirstValue() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.combinePrevious().map { "\($0.0)-\($0.1)" })
        input.send(value: 1)
        #expect(log.all.isEmpty)
        input.send(value: 2)
        input.send(value: 3)
        input.send(error: .other)
        #expect(log.all == ["VALUE 1-2", "VALUE 2-3", "FAILED other"])
    }

    @Test func combinePreviousWorksWithOptionalValues() {
        let (log, _) = record(
            SignalProducer<Int?, Never>(values: nil, 1).combinePrevious().map { "\($0.0 ?? -1)-\($0.1 ?? -1)" }
        )
        #expect(log.all == ["VALUE -1-1", "COMPLETED"])
    }
}
