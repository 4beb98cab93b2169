import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("retry, flatMapError, then, concat, prefix, repeat", .slotted)
struct RetryThenTests {
    /// A producer whose start handler counts its runs and fails the first `failures` of them.
    private func flaky(failures: Int, runs: Log<Int>) -> SignalProducer<String, TestError> {
        SignalProducer { observer, _ in
            let run = runs.all.count + 1
            runs.append(run)
            observer.send(value: "run \(run)")
            if run <= failures {
                observer.send(error: .boom)
            } else {
                observer.sendCompleted()
            }
        }
    }

    @Test func retryRerunsTheSideEffectUntilSuccess() {
        let runs = Log<Int>()
        let (log, _) = record(flaky(failures: 2, runs: runs).retry(upTo: 3))
        #expect(runs.all == [1, 2, 3])
        #expect(log.all == ["VALUE run 1", "VALUE run 2", "VALUE run 3", "COMPLETED"])
    }

    @Test func retryForwardsTheLastFailureAfterNRetries() {
        let runs = Log<Int>()
        let (log, _) = record(flaky(failures: 10, runs: runs).retry(upTo: 2))
        #expect(runs.all == [1, 2, 3])
        #expect(log.all == ["VALUE run 1", "VALUE run 2", "VALUE run 3", "FAILED boom"])
    }

    @Test func retryZeroDoesNotRetry() {
        let runs = Log<Int>()
        let (log, _) = record(flaky(failures: 1, runs: runs).retry(upTo: 0))
        #expect(runs.all == [1])
        #expect(log.all == ["VALUE run 1", "FAILED boom"])
    }

    @Test func disposingARetryingProducerInterruptsTheCurrentAttempt() {
        let probe = ProducerProbe<Int, TestError>()
        let (log, disposable) = record(probe.producer.retry(upTo: 5))
        probe.last.send(error: .boom)
        #expect(probe.starts == 2)
        disposable.dispose()
        #expect(probe.endedStarts == 2)
        #expect(log.all == ["INTERRUPTED"])
    }

    @Test func flatMapErrorSwitchesToTheReplacement() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.flatMapError { error in SignalProducer<Int, Never>(values: -1, -2) })
        input.send(value: 1)
        input.send(error: .boom)
        input.send(value: 2)
        #expect(log.all == ["VALUE 1", "VALUE -1", "VALUE -2", "COMPLETED"])
    }

    @Test func thenStartsTheReplacementOnlyAfterCompletion() {
        let first = ProducerProbe<Int, TestError>()
        let second = ProducerProbe<String, TestError>()
        let (log, _) = record(first.producer.then(second.producer))
        first.last.send(value: 1)
        #expect(second.starts == 0)
        first.last.sendCompleted()
        #expect(second.starts == 1)
        second.last.send(value: "a")
        second.last.sendCompleted()
        #expect(log.all == ["VALUE a", "COMPLETED"])
    }

    @Test func thenForwardsFailureAndInterruptionWithoutStartingTheReplacement() {
        let replacement = ProducerProbe<Int, TestError>()
        let (failed, _) = record(SignalProducer<Int, TestError>(error: .boom).then(replacement.producer))
        let original = ProducerProbe<Int, TestError>()
        let (interrupted, _) = record(original.producer.then(replacement.producer))
        original.last.sendInterrupted()
        #expect(failed.all == ["FAILED boom"])
        #expect(interrupted.all == ["INTERRUPTED"])
        #expect(replacement.starts == 0)
    }

    @Test func thenMixesErrorTypes() {
        let (log, _) = record(SignalProducer<Int, Never>.empty.then(SignalProducer<Int, TestError>(error: .other)))
        #expect(log.all == ["FAILED other"])
        let (never, _) = record(SignalProducer<Int, TestError>.empty.then(SignalProducer<String, Never>(value: "x")))
        #expect(never.all == ["VALUE x", "COMPLETED"])
        let (both, _) = record(SignalProducer<Int, Never>(value: 1).then(SignalProducer<Int, Never>(value: 2)))
        #expect(both.all == ["VALUE 2", "COMPLETED"])
    }

    @Test func concatAndPrefix() {
        let (log, _) = record(
            SignalProducer<Int, Never>(values: 2, 3).concat(.init(value: 4)).concat(value: 5).prefix(value: 1).prefix(
                .init(value: 0)
            )
        )
        #expect(log.all == ["VALUE 0", "VALUE 1", "VALUE 2", "VALUE 3", "VALUE 4", "VALUE 5", "COMPLETED"])
    }

    @Test func repeatRunsTheProducerNTimes() {
        let runs = Log<Int>()
        let (log, _) = record(flaky(failures: 0, runs: runs).repeat(3))
        #expect(runs.all == [1, 2, 3])
        #expect(log.all == ["VALUE run 1", "VALUE run 2", "VALUE run 3", "COMPLETED"])
    }
}
