import GoalTestSlots
import Testing

@testable import GoalReactive

/// Which starts a flattened stream keeps alive (issue 14 point 11), after ReactiveSwift's FlattenSpec ("disposal")
/// and SignalProducerSpec ("flatten"): an inner start lives until it terminates or the result ends, even if its
/// start handler keeps no reference to its observer; outer completion does not end it.
@Suite("flatten: inner and outer starts live until they terminate or are disposed", .slotted)
struct FlattenLifetimeTests {
    static let strategies: [FlattenStrategy] = [.latest, .merge, .concat, .concurrent(limit: 1024), .race]

    /// Records when the lifetime of a start ends.
    private final class EndProbe {
        var ended = 0

        /// A producer whose start handler keeps no reference to its observer and counts the end of its lifetime.
        func producer<Value, Error>() -> SignalProducer<Value, Error> {
            SignalProducer { _, lifetime in lifetime.observeEnded { self.ended += 1 } }
        }
    }

    @Test(arguments: strategies)
    func outerCompletionLeavesARunningInnerAlive(_ strategy: FlattenStrategy) {
        let (outer, outerInput) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let log = record(outer.flatten(strategy))
        let inner = EndProbe()
        outerInput.send(value: inner.producer())
        #expect(inner.ended == 0)
        outerInput.sendCompleted()
        #expect(inner.ended == 0)
        #expect(log.all.isEmpty)
    }

    @Test(arguments: strategies)
    func outerInterruptionEndsTheRunningInner(_ strategy: FlattenStrategy) {
        let (outer, outerInput) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let log = record(outer.flatten(strategy))
        let inner = EndProbe()
        outerInput.send(value: inner.producer())
        #expect(inner.ended == 0)
        outerInput.sendInterrupted()
        #expect(inner.ended == 1)
        #expect(log.all == ["INTERRUPTED"])
    }

    @Test(arguments: strategies)
    func outerFailureEndsTheRunningInner(_ strategy: FlattenStrategy) {
        let (outer, outerInput) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let log = record(outer.flatten(strategy))
        let inner = EndProbe()
        outerInput.send(value: inner.producer())
        #expect(inner.ended == 0)
        outerInput.send(error: .boom)
        #expect(inner.ended == 1)
        #expect(log.all == ["FAILED boom"])
    }

    @Test(arguments: strategies)
    func disposingAFlattenedProducerEndsAnOuterStartThatKeepsNoObserver(_ strategy: FlattenStrategy) {
        let outer = EndProbe()
        let producer: SignalProducer<SignalProducer<Int, Never>, Never> = outer.producer()
        let disposable = producer.flatten(strategy).start()
        #expect(outer.ended == 0)
        disposable.dispose()
        #expect(outer.ended == 1)
    }

    @Test func concatStartsTheNextInnerOnlyAfterThePreviousOneTerminated() {
        let (outer, outerInput) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let log = record(outer.flatten(.concat))
        let first = EndProbe()
        outerInput.send(value: first.producer())
        outerInput.send(value: SignalProducer(value: 2))
        outerInput.sendCompleted()
        #expect(log.all.isEmpty)
        #expect(first.ended == 0)
    }

    @Test func latestKeepsTheNewestInnerAliveUntilTheNextOneArrives() {
        let (outer, outerInput) = Signal<SignalProducer<Int, TestError>, TestError>.pipe()
        let log = record(outer.flatten(.latest))
        let first = EndProbe()
        let second = EndProbe()
        outerInput.send(value: first.producer())
        #expect(first.ended == 0)
        outerInput.send(value: second.producer())
        #expect(first.ended == 1)
        #expect(second.ended == 0)
        outerInput.sendCompleted()
        #expect(log.all.isEmpty)
    }
}
