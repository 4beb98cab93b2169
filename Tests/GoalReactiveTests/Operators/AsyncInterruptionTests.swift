import Dispatch
import GoalTestSlots
import Testing

@testable import GoalReactive

/// How disposing a start reaches the observer of an asynchronous operator (issue 14 point 11), after
/// ReactiveSwift's SignalProducerLiftingSpec ("should interrupt ASAP and discard outstanding events", "should
/// interrupt on the given scheduler") and SignalProducerSpec ("observeOn", "init"): the upstream start is interrupted
/// at once, queued events are dropped, and `.interrupted` itself is delivered on the operator's scheduler.
@Suite(
    "asynchronous operators: disposing a start interrupts upstream at once and downstream on the scheduler",
    .slotted
)
struct AsyncInterruptionTests {
    enum Operator: String, CaseIterable, Sendable {
        case observeOn, delay, throttle, debounceDiscarding, debounceKeeping, collectEvery, observeOnThenMap

        func apply(to producer: SignalProducer<Int, Never>, on scheduler: TestScheduler) -> SignalProducer<Int, Never> {
            switch self {
            case .observeOn: producer.observe(on: scheduler)
            case .delay: producer.delay(10, on: scheduler)
            case .throttle: producer.throttle(10, on: scheduler)
            case .debounceDiscarding: producer.debounce(10, on: scheduler, discardWhenCompleted: true)
            case .debounceKeeping: producer.debounce(10, on: scheduler, discardWhenCompleted: false)
            case .collectEvery: producer.collect(every: .seconds(10), on: scheduler).map(\.count)
            // A synchronous operator after an asynchronous one keeps the asynchronous interruption.
            case .observeOnThenMap: producer.observe(on: scheduler).map { $0 * 2 }
            }
        }
    }

    @Test(arguments: Operator.allCases)
    func interruptionIsDeliveredOnTheScheduler(_ op: Operator) {
        let scheduler = TestScheduler()
        var interrupted = 0
        let disposable = op.apply(to: SignalProducer(0..<128), on: scheduler).startWithInterrupted { interrupted += 1 }
        #expect(interrupted == 0)
        disposable.dispose()
        #expect(interrupted == 0)
        scheduler.run()
        #expect(interrupted == 1)
    }

    @Test(arguments: Operator.allCases)
    func disposingDropsOutstandingEventsAndInterruptsOnce(_ op: Operator) {
        let scheduler = TestScheduler()
        var log: [String] = []
        let disposable = op.apply(to: SignalProducer(0..<128), on: scheduler).start { log.append("\($0)") }
        #expect(log.isEmpty)
        disposable.dispose()
        scheduler.run()
        #expect(log == ["INTERRUPTED"])
    }

    @Test(arguments: Operator.allCases)
    func disposingInterruptsAnUpstreamThatKeepsNoObserverAtOnce(_ op: Operator) {
        let scheduler = TestScheduler()
        var upstreamLifetime: Lifetime?
        let upstream = SignalProducer<Int, Never> { _, lifetime in upstreamLifetime = lifetime }
        var downstream: (any Disposable)?
        op.apply(to: upstream, on: scheduler).startWithSignal { signal, interruptHandle in
            signal.observe { _ in }
            downstream = interruptHandle
        }
        #expect(upstreamLifetime?.hasEnded == false)
        downstream?.dispose()
        #expect(upstreamLifetime?.hasEnded == true)
    }

    @Test func observeOnInterruptsOnTheSchedulerForAnAliveUpstreamObservedThroughStartWithSignal() {
        let scheduler = TestScheduler()
        let (signal, _) = Signal<Int, Never>.pipe()
        var interrupted = false
        let disposable = SignalProducer(signal)
            .observe(on: scheduler)
            .startWithSignal { produced, interruptHandle -> any Disposable in
                produced.observeInterrupted { interrupted = true }
                return interruptHandle
            }
        disposable.dispose()
        #expect(!interrupted)
        scheduler.run()
        #expect(interrupted)
    }

    @Test func observeOnInterruptsOnTheSchedulerForAnUpstreamThatAlreadyCompleted() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let disposable = SignalProducer<Int, Never>.empty.observe(on: scheduler).start { log.append("\($0)") }
        disposable.dispose()
        #expect(log.isEmpty)
        scheduler.run()
        #expect(log == ["INTERRUPTED"])
    }

    @Test func disposingInsideStartWithSignalSkipsTheStartAndInterruptsOnTheScheduler() {
        let scheduler = TestScheduler()
        var started = false
        var log: [String] = []
        SignalProducer<Int, Never> { _, _ in started = true }
            .observe(on: scheduler)
            .startWithSignal { signal, interruptHandle in
                signal.observe { log.append("\($0)") }
                interruptHandle.dispose()
            }
        #expect(!started)
        #expect(log.isEmpty)
        scheduler.run()
        #expect(log == ["INTERRUPTED"])
    }

    @Test func onHooksAfterAnAsynchronousOperatorSeeTheInterruptionOnTheScheduler() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let disposable = SignalProducer<Int, Never>.never
            .observe(on: scheduler)
            .on(interrupted: { log.append("hook interrupted") }, disposed: { log.append("hook disposed") })
            .start { log.append("\($0)") }
        disposable.dispose()
        #expect(log.isEmpty)
        scheduler.run()
        #expect(log == ["hook interrupted", "INTERRUPTED", "hook disposed"])
    }

    @Test func takeFirstAfterAnAsynchronousOperatorCompletesAndEndsTheUpstream() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, Never>()
        let (log, _) = record(probe.producer.observe(on: scheduler).take(first: 1))
        probe.last.send(value: 1)
        probe.last.send(value: 2)
        scheduler.run()
        #expect(log.all == ["VALUE 1", "COMPLETED"])
        #expect(probe.endedStarts == 1)
    }

    @Test func aDisposedAsynchronousStartReleasesItsUpstreamOnceTheSchedulerRan() {
        let scheduler = TestScheduler()
        weak var released: Tracker?
        var disposable: (any Disposable)?
        do {
            let tracker = Tracker()
            released = tracker
            disposable = SignalProducer<Int, Never> { _, lifetime in lifetime.observeEnded { _ = tracker } }
                .observe(on: scheduler)
                .map { $0 }
                .start()
        }
        #expect(released != nil)
        disposable?.dispose()
        scheduler.run()
        disposable = nil
        #expect(released == nil)
    }

    @Test func aSynchronousOperatorLiftedWithLiftStillInterruptsAtOnce() {
        // ReactiveSwift's public `lift` and its binary operators interrupt their own start at once, whatever the
        // upstream does; only its event-transforming operators keep the upstream's asynchronous interruption.
        let scheduler = TestScheduler()
        var log: [String] = []
        let disposable = SignalProducer<Int, Never>.never
            .observe(on: scheduler)
            .lift { $0.map { $0 } }
            .start { log.append("\($0)") }
        disposable.dispose()
        #expect(log == ["INTERRUPTED"])
    }
}
