import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("SignalProducer", .slotted)
struct SignalProducerTests {
    @Test func isColdAndRunsItsSideEffectOnEveryStart() {
        var starts = 0
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts += 1
            observer.send(value: starts)
            observer.sendCompleted()
        }
        #expect(starts == 0)
        var log: [String] = []
        producer.start { log.append("first \($0)") }
        producer.start { log.append("second \($0)") }
        #expect(starts == 2)
        #expect(log == ["first VALUE 1", "first COMPLETED", "second VALUE 2", "second COMPLETED"])
    }

    @Test func startHandlerRunsAfterTheObserverIsAttachedAndBeforeStartReturns() {
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { observer, _ in
            log.append("handler")
            observer.send(value: 1)
            observer.sendCompleted()
        }
        producer.start { log.append("\($0)") }
        log.append("returned")
        #expect(log == ["handler", "VALUE 1", "COMPLETED", "returned"])
    }

    @Test func disposingInterruptsThenEndsTheLifetimeExactlyOnce() {
        var log: [String] = []
        var keptObserver: Signal<Int, Never>.Observer?
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            keptObserver = observer
            lifetime.observeEnded { log.append("cleanup") }
            observer.send(value: 1)
        }
        let disposable = producer.start { log.append("\($0)") }
        #expect(log == ["VALUE 1"])
        disposable.dispose()
        disposable.dispose()
        keptObserver?.send(value: 2)
        keptObserver?.sendCompleted()
        #expect(log == ["VALUE 1", "INTERRUPTED", "cleanup"])
    }

    @Test func naturalCompletionEndsTheLifetimeAfterTheTerminalEvent() {
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.append("cleanup") }
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let disposable = producer.start { log.append("\($0)") }
        disposable.dispose()
        #expect(log == ["VALUE 1", "COMPLETED", "cleanup"])
    }

    @Test func disposingOneStartDoesNotAffectAnother() {
        var observers: [Signal<Int, Never>.Observer] = []
        let producer = SignalProducer<Int, Never> { observer, _ in observers.append(observer) }
        var log: [String] = []
        let first = producer.start { log.append("first \($0)") }
        producer.start { log.append("second \($0)") }
        first.dispose()
        for observer in observers { observer.send(value: 7) }
        #expect(log == ["first INTERRUPTED", "second VALUE 7"])
    }

    @Test func startHandlerThatDropsItsObserverInterrupts() {
        var log: [String] = []
        SignalProducer<Int, Never> { _, _ in }.start { log.append("\($0)") }
        #expect(log == ["INTERRUPTED"])
    }

    @Test func interruptionStopsASynchronousLoop() {
        var sent = 0
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            while !lifetime.hasEnded && sent < 100 {
                sent += 1
                observer.send(value: sent)
            }
        }
        var disposable: (any Disposable)?
        disposable = producer.startWithSignal { signal, interruptHandle in
            signal.observeValues { if $0 == 3 { interruptHandle.dispose() } }
            return interruptHandle
        }
        #expect(sent == 3)
        #expect(disposable != nil)
    }

    @Test func startWithSignalRunsTheHandlerOnlyAfterSetupReturned() {
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { observer, _ in
            log.append("handler")
            observer.send(value: 1)
        }
        let result = producer.startWithSignal { signal, _ in
            signal.observe { log.append("\($0)") }
            log.append("setup")
            return 42
        }
        #expect(result == 42)
        #expect(log == ["setup", "handler", "VALUE 1", "INTERRUPTED"])
    }

    @Test func interruptingInsideSetupSkipsTheStartHandler() {
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { _, _ in log.append("handler") }
        producer.startWithSignal { signal, interruptHandle in
            signal.observe { log.append("\($0)") }
            interruptHandle.dispose()
        }
        #expect(log == ["INTERRUPTED"])
    }

    @Test func startConveniences() {
        var log: [String] = []
        SignalProducer<Int, TestError>(values: 1, 2).startWithResult { log.append("result \($0)") }
        SignalProducer<Int, TestError>(error: .boom).startWithResult { log.append("result \($0)") }
        SignalProducer<Int, TestError>(value: 1).startWithCompleted { log.append("completed") }
        SignalProducer<Int, TestError>(error: .boom).startWithFailed { log.append("failed \($0)") }
        SignalProducer<Int, TestError>.never.startWithInterrupted { log.append("interrupted") }.dispose()
        SignalProducer<Int, Never>(values: 3, 4).startWithValues { log.append("value \($0)") }
        #expect(
            log == [
                "result success(1)", "result success(2)", "result failure(GoalReactiveTests.TestError.boom)",
                "completed", "failed boom", "interrupted", "value 3", "value 4",
            ]
        )
    }

    @Test func startWithAnExplicitObserver() {
        var log: [String] = []
        let observer = Signal<Int, Never>.Observer(
            value: { log.append("value \($0)") },
            completed: { log.append("completed") }
        )
        SignalProducer<Int, Never>(value: 5).start(observer)
        #expect(log == ["value 5", "completed"])
    }
}
