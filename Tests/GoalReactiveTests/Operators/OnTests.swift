import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("on(...) side effects", .slotted)
struct OnTests {
    @Test func producerHookOrderForASynchronousProducer() {
        let log = Log<String>()
        SignalProducer<Int, Never>(value: 1)
            .on(
                starting: { log.append("starting") },
                started: { log.append("started") },
                event: { log.append("event \($0)") },
                completed: { log.append("completed") },
                terminated: { log.append("terminated") },
                disposed: { log.append("disposed") },
                value: { log.append("value \($0)") }
            )
            .start { log.append("observer \($0)") }
        #expect(
            log.all == [
                "starting",
                "event VALUE 1", "value 1", "observer VALUE 1",
                "event COMPLETED", "completed", "terminated", "observer COMPLETED",
                "disposed",
                "started",
            ]
        )
    }

    @Test func stackedHooksStartOuterFirstAndFinishInnerFirst() {
        let log = Log<String>()
        SignalProducer<Int, Never>.empty
            .on(starting: { log.append("starting 1") }, started: { log.append("started 1") })
            .on(starting: { log.append("starting 2") }, started: { log.append("started 2") })
            .start()
        #expect(log.all == ["starting 2", "starting 1", "started 1", "started 2"])
    }

    @Test func failureAndInterruptionHooks() {
        let log = Log<String>()
        SignalProducer<Int, TestError>(error: .boom)
            .on(failed: { log.append("failed \($0)") }, terminated: { log.append("terminated") })
            .start()
        let probe = ProducerProbe<Int, TestError>()
        let disposable = probe.producer
            .on(interrupted: { log.append("interrupted") }, disposed: { log.append("disposed") })
            .start()
        disposable.dispose()
        #expect(log.all == ["failed boom", "terminated", "interrupted", "disposed"])
        #expect(probe.endedStarts == 1)
    }

    @Test func signalHooksRunBeforeForwarding() {
        let log = Log<String>()
        let (signal, input) = Signal<Int, Never>.pipe()
        signal
            .on(event: { log.append("hook \($0)") }, disposed: { log.append("disposed") })
            .observe { log.append("observer \($0)") }
        input.send(value: 1)
        input.sendCompleted()
        #expect(log.all == ["hook VALUE 1", "observer VALUE 1", "hook COMPLETED", "observer COMPLETED", "disposed"])
    }
}
