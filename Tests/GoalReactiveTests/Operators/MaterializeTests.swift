import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("materialize, dematerialize, attempt", .slotted)
struct MaterializeTests {
    @Test func materializeTurnsEventsIntoValuesAndCompletesAfterATerminalEvent() {
        let (completed, _) = record(SignalProducer<Int, TestError>(value: 1).materialize())
        #expect(completed.all == ["VALUE VALUE 1", "VALUE COMPLETED", "COMPLETED"])
        let (failed, _) = record(SignalProducer<Int, TestError>(error: .boom).materialize())
        #expect(failed.all == ["VALUE FAILED boom", "COMPLETED"])
    }

    @Test func materializedInterruptionInterruptsTheResult() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.materialize())
        input.sendInterrupted()
        #expect(log.all == ["VALUE INTERRUPTED", "INTERRUPTED"])
    }

    @Test func dematerializeIsTheInverse() {
        let (log, _) = record(
            SignalProducer<Int, TestError>(values: 1, 2).concat(.init(error: .other)).materialize().dematerialize()
        )
        #expect(log.all == ["VALUE 1", "VALUE 2", "FAILED other"])
    }

    @Test func materializeResultsRoundTrips() {
        let (results, _) = record(SignalProducer<Int, TestError>(error: .boom).materializeResults())
        #expect(results.all == ["VALUE failure(GoalReactiveTests.TestError.boom)", "COMPLETED"])
        let (log, _) = record(SignalProducer<Int, TestError>(value: 4).materializeResults().dematerializeResults())
        #expect(log.all == ["VALUE 4", "COMPLETED"])
    }

    @Test func attemptFailsAtTheFirstFailingValueAndInterruptsUpstream() {
        var iterations = 0
        let producer = SignalProducer<Int, TestError> { observer, lifetime in
            while !lifetime.hasEnded && iterations < 10 {
                iterations += 1
                observer.send(value: iterations)
            }
        }
        let (log, _) = record(producer.attempt { $0 < 3 ? .success(()) : .failure(.boom) })
        #expect(log.all == ["VALUE 1", "VALUE 2", "FAILED boom"])
        #expect(iterations == 3)
    }

    @Test func throwingAttemptAndAttemptMap() {
        let (log, _) = record(
            SignalProducer<Int, Never>(values: 1, 2, 3)
                .attemptMap { value -> String in
                    if value == 3 { throw TestError.other }
                    return "#\(value)"
                }
                .mapError { $0 as? TestError ?? .boom }
        )
        #expect(log.all == ["VALUE #1", "VALUE #2", "FAILED other"])
        let (mapped, _) = record(SignalProducer<Int, TestError>(values: 1, 2).attemptMap { .success($0 * 2) })
        #expect(mapped.all == ["VALUE 2", "VALUE 4", "COMPLETED"])
    }
}
