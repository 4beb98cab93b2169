import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("Signal", .slotted)
struct SignalTests {
    @Test func deliversInOrderToObserversInSubscriptionOrder() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        var log: [String] = []
        signal.observe { log.append("A \($0)") }
        signal.observe { log.append("B \($0)") }
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(log == ["A VALUE 1", "B VALUE 1", "A VALUE 2", "B VALUE 2", "A COMPLETED", "B COMPLETED"])
    }

    @Test(arguments: [
        Signal<Int, TestError>.Event.completed, .failed(.boom), .interrupted,
    ])
    func exactlyOneTerminalEventAndNothingAfterIt(terminal: Signal<Int, TestError>.Event) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        var log: [Signal<Int, TestError>.Event] = []
        signal.observe { log.append($0) }
        input.send(value: 1)
        input.send(terminal)
        input.send(value: 2)
        input.sendCompleted()
        input.send(error: .other)
        input.sendInterrupted()
        #expect(log == [.value(1), terminal])
    }

    @Test(arguments: [
        Signal<Int, TestError>.Event.completed, .failed(.boom), .interrupted,
    ])
    func observerAddedAfterTerminationReceivesOnlyInterrupted(terminal: Signal<Int, TestError>.Event) {
        let (signal, input) = Signal<Int, TestError>.pipe()
        input.send(terminal)
        var log: [Signal<Int, TestError>.Event] = []
        let disposable = signal.observe { log.append($0) }
        input.send(value: 1)
        #expect(disposable == nil)
        #expect(log == [.interrupted])
    }

    @Test func emptyIsAlreadyTerminated() {
        var log: [String] = []
        let disposable = Signal<Int, Never>.empty.observe { log.append("\($0)") }
        #expect(disposable == nil)
        #expect(log == ["INTERRUPTED"])
    }

    @Test func neverSendsNothingEvenWhenObservationIsDisposed() {
        let signal = Signal<Int, Never>.never
        var log: [String] = []
        let disposable = signal.observe { log.append("\($0)") }
        #expect(disposable != nil)
        disposable?.dispose()
        #expect(log.isEmpty)
    }

    @Test func generatorRunsSynchronouslyAndItsEventsReachNobody() {
        var log: [String] = []
        var input: Signal<Int, Never>.Observer?
        let signal = Signal<Int, Never> { observer, _ in
            log.append("generator")
            observer.send(value: 0)
            input = observer
        }
        log.append("created")
        signal.observeValues { log.append("value \($0)") }
        input?.send(value: 1)
        #expect(log == ["generator", "created", "value 1"])
    }

    @Test func disposingAnObservationDetachesOnlyThatObserver() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        let first = signal.observeValues { log.append("A \($0)") }
        signal.observeValues { log.append("B \($0)") }
        input.send(value: 1)
        first?.dispose()
        first?.dispose()
        input.send(value: 2)
        #expect(log == ["A 1", "B 1", "B 2"])
    }

    @Test func deliveryUsesASnapshotOfTheObservers() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        var second: (any Disposable)?
        signal.observeValues { value in
            log.append("A \(value)")
            if value == 1 {
                second?.dispose()  // removed during delivery: still receives this event
                signal.observeValues { log.append("C \($0)") }  // added during delivery: misses this event
            }
        }
        second = signal.observeValues { log.append("B \($0)") }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log == ["A 1", "B 1", "A 2", "C 2"])
    }

    @Test func observeConveniences() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        var log: [String] = []
        signal.observeResult { log.append("result \($0)") }
        signal.observeCompleted { log.append("completed") }
        signal.observeFailed { log.append("failed \($0)") }
        signal.observeInterrupted { log.append("interrupted") }
        signal.observe(Signal.Observer(value: { log.append("value \($0)") }))
        input.send(value: 1)
        input.send(error: .boom)
        #expect(
            log == ["result success(1)", "value 1", "result failure(GoalReactiveTests.TestError.boom)", "failed boom"]
        )
    }

    @Test func observeValuesAndCompletion() {
        let (signal, input) = Signal<String, Never>.pipe()
        var log: [String] = []
        signal.observeValues { log.append($0) }
        signal.observeCompleted { log.append("done") }
        signal.observeInterrupted { log.append("interrupted") }
        input.send(value: "a")
        input.sendCompleted()
        signal.observeInterrupted { log.append("late interrupted") }
        #expect(log == ["a", "done", "late interrupted"])
    }
}
