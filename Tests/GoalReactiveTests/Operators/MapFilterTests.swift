import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("map, mapError, filter, compactMap, skipNil, ignoreValues, promoteError", .slotted)
struct MapFilterTests {
    private struct Point { let x: Int }

    @Test func mapTransformsValuesAndForwardsCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.map { $0 * 10 })
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        input.send(value: 3)
        #expect(log.all == ["VALUE 10", "VALUE 20", "COMPLETED"])
    }

    @Test func mapValueAndKeyPath() {
        let (signal, input) = Signal<Point, Never>.pipe()
        let constants = record(signal.map(value: "x"))
        let xs = record(signal.map(\.x))
        input.send(value: Point(x: 4))
        input.send(value: Point(x: 7))
        #expect(constants.all == ["VALUE x", "VALUE x"])
        #expect(xs.all == ["VALUE 4", "VALUE 7"])
    }

    @Test func mapErrorTransformsOnlyTheFailure() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.mapError { Wrapped(text: "\($0)!") })
        input.send(value: 1)
        input.send(error: .boom)
        #expect(log.all == ["VALUE 1", "FAILED Wrapped(text: \"boom!\")"])
    }

    private struct Wrapped: Swift.Error { let text: String }

    @Test func filterForwardsOnlyPassingValuesAndTerminalEvents() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.filter { $0.isMultiple(of: 2) })
        for value in 1...5 { input.send(value: value) }
        input.send(error: .boom)
        #expect(log.all == ["VALUE 2", "VALUE 4", "FAILED boom"])
    }

    @Test func compactMapAndSkipNilDropNils() {
        let (signal, input) = Signal<String, Never>.pipe()
        let numbers = record(signal.compactMap { Int($0) })
        let skipped = record(signal.map { Int($0) }.skipNil())
        for text in ["1", "x", "3"] { input.send(value: text) }
        input.sendInterrupted()
        #expect(numbers.all == ["VALUE 1", "VALUE 3", "INTERRUPTED"])
        #expect(skipped.all == numbers.all)
    }

    @Test func ignoreValuesForwardsOnlyTheTerminalEvent() {
        let (log, _) = record(SignalProducer<Int, TestError>(values: 1, 2, 3).ignoreValues().promoteValue(String.self))
        #expect(log.all == ["COMPLETED"])
        let (failed, _) = record(SignalProducer<Int, TestError>(error: .boom).ignoreValues())
        #expect(failed.all == ["FAILED boom"])
    }

    @Test func promoteErrorKeepsEvents() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2).promoteError(TestError.self))
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func producerMapRunsPerStart() {
        var starts = 0
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts += 1
            observer.send(value: starts)
            observer.sendCompleted()
        }
        .map { $0 + 100 }
        let (first, _) = record(producer)
        let (second, _) = record(producer)
        #expect(first.all == ["VALUE 101", "COMPLETED"])
        #expect(second.all == ["VALUE 102", "COMPLETED"])
    }

    @Test func disposingAMappedStartInterruptsTheUpstreamStart() {
        let probe = ProducerProbe<Int, Never>()
        let (log, disposable) = record(probe.producer.map { $0 }.filter { _ in true }.compactMap { $0 })
        probe.last.send(value: 1)
        #expect(probe.endedStarts == 0)
        disposable.dispose()
        probe.last.send(value: 2)
        #expect(log.all == ["VALUE 1", "INTERRUPTED"])
        #expect(probe.endedStarts == 1)
    }

    @Test func disposingTheLastObservationOfAChainReleasesTheUpstreamSignal() {
        let upstreamEnded = Log<String>()
        var pipe: (output: Signal<Int, Never>, input: Signal<Int, Never>.Observer)? = Signal.pipe(
            disposable: AnyDisposable { upstreamEnded.append("ended") }
        )
        let input = pipe!.input
        var upstream: Signal<Int, Never>? = pipe!.output
        pipe = nil
        var mapped: Signal<Int, Never>? = upstream?.map { $0 }.filter { _ in true }
        let observation = mapped?.observe { _ in }
        mapped = nil
        upstream = nil
        #expect(upstreamEnded.all.isEmpty)
        observation?.dispose()
        #expect(upstreamEnded.all == ["ended"])
        withExtendedLifetime(input) {}
    }
}
