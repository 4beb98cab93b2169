import Dispatch
import GoalTestSlots
import Testing

@testable import GoalReactive

/// `Action`: enabling, rejection of concurrent applies, and exact event order.
@Suite("Action", .slotted)
struct ActionTests {
    /// An action whose executions stay open until the test sends on the kept observer.
    final class Harness: @unchecked Sendable {
        // `@unchecked Sendable`: mutated only by the test thread, or under `log`'s lock.
        let log = Log<String>()
        var started = 0
        var running: Signal<Int, TestError>.Observer?
        let action: Action<Int, Int, TestError>

        init(enabled: MutableProperty<Bool> = MutableProperty(true)) {
            var box: Harness?
            action = Action(enabledIf: enabled) { input in
                SignalProducer { observer, _ in
                    box?.started += 1
                    box?.log.append("work \(input)")
                    box?.running = observer
                }
            }
            box = self
            let log = log
            action.isEnabled.producer.startWithValues { log.append("isEnabled \($0)") }
            action.isExecuting.producer.startWithValues { log.append("isExecuting \($0)") }
            action.values.observeValues { log.append("values \($0)") }
            action.errors.observeValues { log.append("errors \($0)") }
            action.completed.observeValues { log.append("completed") }
            action.disabledErrors.observeValues { log.append("disabledErrors") }
        }

        func apply(_ input: Int, as name: String = "apply") -> any Disposable {
            let log = log
            return action.apply(input).start { log.append("\(name) \($0)") }
        }
    }

    @Test func asynchronousExecutionFollowsReactiveSwiftsEventOrder() {
        let harness = Harness()
        _ = harness.apply(1)
        harness.running?.send(value: 10)
        harness.running?.sendCompleted()
        #expect(
            harness.log.all == [
                "isEnabled true", "isExecuting false",
                "isEnabled false", "isExecuting true", "work 1",
                "apply VALUE 10", "values 10",
                "apply COMPLETED", "isEnabled true", "isExecuting false", "completed",
            ]
        )
    }

    @Test func failureIsWrappedForApplyAndUnwrappedOnErrors() {
        let harness = Harness()
        _ = harness.apply(1)
        harness.running?.send(error: .boom)
        #expect(
            Array(harness.log.all.dropFirst(5)) == [
                "apply FAILED producerFailed(boom)", "isEnabled true", "isExecuting false", "errors boom",
            ]
        )
    }

    @Test func synchronousExecutionCompletesWhileStillExecuting() {
        let log = Log<String>()
        let action = Action<Int, Int, Never> { SignalProducer(value: $0 * 2) }
        action.isExecuting.signal.observeValues { log.append("isExecuting \($0)") }
        action.values.observeValues { log.append("values \($0)") }
        action.completed.observeValues { log.append("completed") }
        action.events.observeValues { log.append("events \($0)") }
        action.apply(2).start { log.append("apply \($0)") }
        #expect(
            log.all == [
                "isExecuting true",
                "apply VALUE 4", "values 4", "events VALUE 4",
                "apply COMPLETED", "completed", "events COMPLETED",
                "isExecuting false",
            ]
        )
    }

    @Test func enabledIfControlsIsEnabledAndDisabledApplyDoesNotRunTheWork() {
        let enabled = MutableProperty(false)
        let harness = Harness(enabled: enabled)
        _ = harness.apply(1)
        #expect(harness.started == 0)
        enabled.value = true
        enabled.value = true
        _ = harness.apply(2)
        #expect(harness.started == 1)
        enabled.value = false
        harness.running?.sendCompleted()
        #expect(
            harness.log.all == [
                "isEnabled false", "isExecuting false",
                "apply FAILED disabled", "disabledErrors",
                "isEnabled true",
                "isEnabled false", "isExecuting true", "work 2",
                "apply COMPLETED", "isExecuting false", "completed",
            ]
        )
        #expect(harness.action.isEnabled.value == false)
    }

    @Test func applyWhileExecutingIsRejectedFromAnyThread() {
        let harness = Harness()
        _ = harness.apply(1, as: "first")
        let rejected = Log<String>()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            harness.action.apply(100 + index).start { rejected.append("\($0)") }
        }
        #expect(rejected.all == Array(repeating: "FAILED disabled", count: 8))
        #expect(harness.started == 1)
        #expect(harness.log.all.filter { $0 == "disabledErrors" }.count == 8)
        harness.running?.send(value: 1)
        harness.running?.sendCompleted()
        #expect(
            harness.log.all.suffix(6) == [
                "first VALUE 1", "values 1", "first COMPLETED", "isEnabled true", "isExecuting false", "completed",
            ]
        )
        _ = harness.apply(2, as: "second")
        #expect(harness.started == 2)
    }

    @Test func isExecutingIsFalseTrueFalse() {
        let harness = Harness()
        var executing: [Bool] = []
        harness.action.isExecuting.producer.startWithValues { executing.append($0) }
        _ = harness.apply(1)
        #expect(executing == [false, true])
        harness.running?.sendCompleted()
        #expect(executing == [false, true, false])
    }

    @Test func disposingTheApplyInterruptsTheWorkAndEndsTheExecution() {
        var workEnded = false
        let action = Action<Void, Int, Never> {
            // Keeps its observer until interrupted (releasing it would interrupt at once).
            SignalProducer { observer, lifetime in
                lifetime.observeEnded {
                    withExtendedLifetime(observer) { workEnded = true }
                }
            }
        }
        var events: [String] = []
        action.events.observeValues { events.append("\($0)") }
        let disposable = action.apply().start()
        #expect(action.isExecuting.value)
        disposable.dispose()
        #expect(workEnded)
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
        #expect(events == ["INTERRUPTED"])
    }

    @Test func stateIsPassedAsThePredicateSawIt() {
        let state = MutableProperty(0)
        var received: [String] = []
        let action = Action<String, Never, Never>(
            state: state,
            enabledIf: { $0 > 0 },
            execute: { value, input in
                received.append("\(input) with \(value)")
                return .empty
            }
        )
        #expect(!action.isEnabled.value)
        action.apply("a").start()
        state.value = 3
        #expect(action.isEnabled.value)
        action.apply("b").start()
        #expect(received == ["b with 3"])

        let optional = MutableProperty<String?>(nil)
        let unwrapping = Action<Void, String, Never>(unwrapping: optional) { SignalProducer(value: $0 + "!") }
        var values: [String] = []
        unwrapping.values.observeValues { values.append($0) }
        unwrapping.apply().start()
        optional.value = "go"
        unwrapping.apply().start()
        #expect(values == ["go!"])
    }

    @Test func feedbackFromIsExecutingIntoTheStateDoesNotDeadlock() {
        let enabled = MutableProperty(true)
        var running: Signal<Int, Never>.Observer?
        let action = Action<Void, Int, Never>(enabledIf: enabled) {
            SignalProducer { observer, _ in running = observer }
        }
        enabled <~ action.isExecuting.negate()
        action.apply().start()
        #expect(enabled.value == false)
        #expect(action.isExecuting.value)
        running?.sendCompleted()
        #expect(enabled.value == true)
        #expect(action.isEnabled.value)
    }

    @Test func deinitCompletesEventsAndEndsLifetime() {
        var action: Action<Int, Int, Never>? = Action { SignalProducer(value: $0) }
        weak let weakAction = action
        var log: [String] = []
        action?.events.observe { log.append("events \($0)") }
        action?.completed.observe { log.append("completed \($0)") }
        action?.lifetime.observeEnded { log.append("lifetime ended") }
        action = nil
        #expect(weakAction == nil)
        // The projections observe `events` first (they are created in `init`), so they complete first.
        #expect(log == ["completed COMPLETED", "events COMPLETED", "lifetime ended"])
    }
}
