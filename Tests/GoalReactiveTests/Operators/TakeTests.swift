import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("take(first:), take(last:), take(while:), take(until:), take(during:)", .slotted)
struct TakeTests {
    @Test func takeFirstCompletesRightAfterTheNthValueAndStopsTheUpstreamLoop() {
        var iterations = 0
        let upstreamEnded = Log<String>()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { upstreamEnded.append("ended at \(iterations)") }
            while !lifetime.hasEnded && iterations < 100 {
                iterations += 1
                observer.send(value: iterations)
            }
        }
        let (log, _) = record(producer.take(first: 3))
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 3", "COMPLETED"])
        #expect(iterations == 3)
        #expect(upstreamEnded.all == ["ended at 3"])
    }

    @Test func takeFirstOnASignalIgnoresLaterValues() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.take(first: 2))
        for value in 1...4 { input.send(value: value) }
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func takeFirstZeroIsAlreadyTerminated() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.take(first: 0))
        input.send(value: 1)
        #expect(log.all == ["INTERRUPTED"])

        var started = false
        let (producerLog, _) = record(SignalProducer<Int, Never> { _, _ in started = true }.take(first: 0))
        #expect(producerLog.all == ["INTERRUPTED"])
        #expect(!started)
    }

    @Test func takeLastSendsTheTrailingValuesOnCompletion() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let log = record(signal.take(last: 2))
        for value in 1...5 { input.send(value: value) }
        #expect(log.all.isEmpty)
        input.sendCompleted()
        #expect(log.all == ["VALUE 4", "VALUE 5", "COMPLETED"])

        let (failing, _) = record(
            SignalProducer<Int, TestError>(values: 1, 2).concat(.init(error: .boom)).take(last: 1)
        )
        #expect(failing.all == ["FAILED boom"])
    }

    @Test func takeWhileCompletesWithoutTheFailingValue() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 5, 1).take(while: { $0 < 3 }))
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func takeUntilPredicateForwardsTheFailingValueThenCompletes() {
        let (log, _) = record(SignalProducer<Int, Never>(values: 1, 2, 5, 1).take(until: { $0 < 3 }))
        #expect(log.all == ["VALUE 1", "VALUE 2", "VALUE 5", "COMPLETED"])
    }

    @Test func takeUntilTriggerValueCompletes() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (trigger, fire) = Signal<(), Never>.pipe()
        let log = record(signal.take(until: trigger))
        input.send(value: 1)
        fire.send(value: ())
        input.send(value: 2)
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func takeUntilTriggerCompletionCompletesButInterruptionIsIgnored() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let (completing, completeTrigger) = Signal<(), Never>.pipe()
        let (interrupting, interruptTrigger) = Signal<(), Never>.pipe()
        let untilCompleted = record(signal.take(until: completing))
        let untilInterrupted = record(signal.take(until: interrupting))
        input.send(value: 1)
        completeTrigger.sendCompleted()
        interruptTrigger.sendInterrupted()
        input.send(value: 2)
        #expect(untilCompleted.all == ["VALUE 1", "COMPLETED"])
        #expect(untilInterrupted.all == ["VALUE 1", "VALUE 2"])
    }

    @Test func takeUntilASynchronousTriggerProducerCompletesBeforeTheSourceStarts() {
        var sourceStarted = false
        let source = SignalProducer<Int, Never> { observer, _ in
            sourceStarted = true
            observer.send(value: 1)
        }
        let (log, _) = record(source.take(until: SignalProducer<(), Never>(value: ())))
        #expect(log.all == ["COMPLETED"])
        #expect(!sourceStarted)
    }

    @Test func takeUntilTriggerFiringFirstStopsTheRunningUpstream() {
        let source = ProducerProbe<Int, Never>()
        let trigger = ProducerProbe<(), Never>()
        let (log, _) = record(source.producer.take(until: trigger.producer))
        #expect(trigger.starts == 1 && source.starts == 1)
        source.last.send(value: 1)
        trigger.last.send(value: ())
        source.last.send(value: 2)
        #expect(log.all == ["VALUE 1", "COMPLETED"])
        #expect(source.endedStarts == 1)
        #expect(trigger.endedStarts == 1)
    }

    @Test func takeDuringCompletesWhenTheLifetimeEnds() {
        let (lifetime, token) = Lifetime.make()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.take(during: lifetime))
        input.send(value: 1)
        token.dispose()
        input.send(value: 2)
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func takeDuringAnEndedLifetimeIsTerminatedAtOnce() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.take(during: .empty))
        input.send(value: 1)
        #expect(log.all == ["INTERRUPTED"])

        let probe = ProducerProbe<Int, Never>()
        let (producerLog, _) = record(probe.producer.take(during: .empty))
        #expect(producerLog.all == ["INTERRUPTED"])
        #expect(probe.starts == 0)
    }

    @Test func takeDuringInterruptsTheUpstreamStartWhenTheLifetimeEnds() {
        let probe = ProducerProbe<Int, Never>()
        var token: Lifetime.Token? = Lifetime.Token()
        let (log, _) = record(probe.producer.take(during: Lifetime(token!)))
        probe.last.send(value: 7)
        token = nil
        #expect(log.all == ["VALUE 7", "COMPLETED"])
        #expect(probe.endedStarts == 1)
    }
}
