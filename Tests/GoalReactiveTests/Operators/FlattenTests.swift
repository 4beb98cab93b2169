import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("flatten / flatMap: latest, merge, concat, race", .slotted)
struct FlattenTests {
    typealias Inner = SignalProducer<Int, TestError>

    @Test func latestDisposesThePreviousInnerWhenANewOneArrives() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let first = ProducerProbe<Int, TestError>()
        let second = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.latest))
        outerInput.send(value: first.producer)
        first.last.send(value: 1)
        outerInput.send(value: second.producer)
        #expect(first.endedStarts == 1)
        first.last.send(value: 99)
        second.last.send(value: 2)
        #expect(log.all == ["VALUE 1", "VALUE 2"])
    }

    @Test func latestCompletesWhenOuterAndLatestInnerCompleted() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let inner = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.latest))
        outerInput.send(value: inner.producer)
        outerInput.sendCompleted()
        #expect(log.all.isEmpty)
        inner.last.send(value: 1)
        inner.last.sendCompleted()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func latestInnerCompletionBeforeOuterCompletionWaitsForTheOuter() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let log = record(outer.flatten(.latest))
        outerInput.send(value: Inner(value: 1))
        #expect(log.all == ["VALUE 1"])
        outerInput.sendCompleted()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func mergeInterleavesAndCompletesOnlyWhenOuterAndAllInnersCompleted() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.merge))
        outerInput.send(value: a.producer)
        outerInput.send(value: b.producer)
        a.last.send(value: 1)
        b.last.send(value: 2)
        a.last.send(value: 3)
        a.last.sendCompleted()
        outerInput.sendCompleted()
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3"])
        b.last.sendInterrupted()  // an inner interruption counts as its completion
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3", "COMPLETED"])
    }

    @Test func concatQueuesLaterInnersWithoutStartingThem() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.concat))
        outerInput.send(value: a.producer)
        outerInput.send(value: b.producer)
        #expect(a.starts == 1 && b.starts == 0)
        a.last.send(value: 1)
        outerInput.sendCompleted()
        a.last.sendCompleted()
        #expect(b.starts == 1)
        b.last.send(value: 2)
        #expect(log.all == ["VALUE 1", "VALUE 2"])
        b.last.sendCompleted()
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func concatOfSynchronousProducersKeepsOrder() {
        let producers = SignalProducer<Inner, TestError>(
            values: Inner(values: 1, 2),
            Inner(value: 3),
            .empty,
            Inner(values: 4)
        )
        let (log, _) = record(producers.flatten(.concat))
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3", "VALUE 4", "COMPLETED"])
    }

    @Test func concurrentLimitRunsAtMostLimitInners() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let probes = (0..<3).map { _ in ProducerProbe<Int, TestError>() }
        let log = record(outer.flatten(.concurrent(limit: 2)))
        for probe in probes { outerInput.send(value: probe.producer) }
        #expect(probes.map(\.starts) == [1, 1, 0])
        probes[1].last.sendCompleted()
        #expect(probes[2].starts == 1)
        probes[2].last.send(value: 7)
        #expect(log.all == ["VALUE 7"])
    }

    @Test func innerFailureFailsTheResultAndDisposesTheOtherInners() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.merge))
        outerInput.send(value: a.producer)
        outerInput.send(value: b.producer)
        b.last.send(error: .boom)
        #expect(log.all == ["FAILED boom"])
        #expect(a.endedStarts == 1)
    }

    @Test func outerInterruptionInterruptsTheResultAndDisposesInners() {
        for strategy in [FlattenStrategy.merge, .concat, .latest, .race] {
            let (outer, outerInput) = Signal<Inner, TestError>.pipe()
            let inner = ProducerProbe<Int, TestError>()
            let log = record(outer.flatten(strategy))
            outerInput.send(value: inner.producer)
            outerInput.sendInterrupted()
            #expect(log.all == ["INTERRUPTED"])
            #expect(inner.endedStarts == 1)
        }
    }

    @Test func outerCompletionDoesNotDisposeTheRunningInner() {
        for strategy in [FlattenStrategy.merge, .concat, .latest] {
            let (outer, outerInput) = Signal<Inner, TestError>.pipe()
            let inner = ProducerProbe<Int, TestError>()
            let log = record(outer.flatten(strategy))
            outerInput.send(value: inner.producer)
            outerInput.sendCompleted()
            #expect(inner.endedStarts == 0)
            inner.last.send(value: 5)
            #expect(log.all == ["VALUE 5"])
        }
    }

    @Test func disposingAFlattenedProducerInterruptsOuterAndInners() {
        let outer = ProducerProbe<Inner, TestError>()
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let (log, disposable) = record(outer.producer.flatten(.merge))
        outer.last.send(value: a.producer)
        outer.last.send(value: b.producer)
        a.last.send(value: 1)
        disposable.dispose()
        #expect(log.all == ["VALUE 1", "INTERRUPTED"])
        #expect(outer.endedStarts == 1 && a.endedStarts == 1 && b.endedStarts == 1)
    }

    @Test func raceForwardsOnlyTheFirstInnerToSendAndDisposesTheOthers() {
        let (outer, outerInput) = Signal<Inner, TestError>.pipe()
        let a = ProducerProbe<Int, TestError>()
        let b = ProducerProbe<Int, TestError>()
        let late = ProducerProbe<Int, TestError>()
        let log = record(outer.flatten(.race))
        outerInput.send(value: a.producer)
        outerInput.send(value: b.producer)
        b.last.send(value: 2)
        #expect(a.endedStarts == 1)
        a.last.send(value: 1)
        outerInput.send(value: late.producer)
        #expect(late.starts == 0)
        outerInput.sendCompleted()
        b.last.send(value: 3)
        b.last.sendCompleted()
        #expect(log.all == ["VALUE 2", "VALUE 3", "COMPLETED"])
    }

    @Test func flatMapLatestForSearchAsYouType() {
        let scheduler = TestScheduler()
        let (queries, input) = Signal<String, Never>.pipe()
        let searches = Log<String>()
        let results = queries.flatMap(.latest) { query in
            SignalProducer<String, Never>(value: "results for \(query)")
                .on(started: { searches.append(query) }, disposed: { searches.append("disposed \(query)") })
                .delay(1, on: scheduler)
        }
        let log = record(results)
        input.send(value: "a")
        input.send(value: "ab")
        scheduler.advance(by: 1)
        input.sendCompleted()
        #expect(log.all == ["VALUE results for ab", "COMPLETED"])
        #expect(searches.all.contains("disposed a"))
    }

    @Test func flatMapMixesErrorTypes() {
        let (neverFailing, input) = Signal<Int, Never>.pipe()
        let failingInners = record(neverFailing.flatMap(.merge) { $0 > 1 ? Inner(error: .boom) : Inner(value: $0) })
        input.send(value: 1)
        input.send(value: 2)
        #expect(failingInners.all == ["VALUE 1", "FAILED boom"])

        let (failing, failingInput) = Signal<Int, TestError>.pipe()
        let neverFailingInners = record(failing.flatMap(.concat) { SignalProducer<Int, Never>(values: $0, $0) })
        failingInput.send(value: 3)
        failingInput.send(error: .other)
        #expect(neverFailingInners.all == ["VALUE 3", "VALUE 3", "FAILED other"])

        let (log, _) = record(
            SignalProducer<Int, Never>(values: 1, 2).flatMap(.merge) { SignalProducer<Int, Never>(value: $0 * 10) }
        )
        #expect(log.all == ["VALUE 10", "VALUE 20", "COMPLETED"])

        let (sameError, _) = record(
            SignalProducer<Int, TestError>(values: 1, 2).flatMap(.concat) { Inner(values: $0, $0 * 10) }
        )
        #expect(sameError.all == ["VALUE 1", "VALUE 10", "VALUE 2", "VALUE 20", "COMPLETED"])
    }

    @Test func flattenASignalOfSignals() {
        let (outer, outerInput) = Signal<Signal<Int, Never>, Never>.pipe()
        let (a, inputA) = Signal<Int, Never>.pipe()
        let (b, inputB) = Signal<Int, Never>.pipe()
        let log = record(outer.flatten(.merge))
        outerInput.send(value: a)
        outerInput.send(value: b)
        inputB.send(value: 2)
        inputA.send(value: 1)
        outerInput.sendCompleted()
        inputA.sendCompleted()
        inputB.sendCompleted()
        #expect(log.all == ["VALUE 2", "VALUE 1", "COMPLETED"])
    }
}
