import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("Signal.Event", .slotted)
struct EventTests {
    typealias Event = Signal<Int, TestError>.Event

    @Test func terminatingClassification() {
        #expect(Event.value(1).isTerminating == false)
        #expect(Event.failed(.boom).isTerminating)
        #expect(Event.completed.isTerminating)
        #expect(Event.interrupted.isTerminating)
        #expect(Event.completed.isCompleted)
        #expect(Event.interrupted.isCompleted == false)
    }

    @Test func accessors() {
        #expect(Event.value(3).value == 3)
        #expect(Event.completed.value == nil)
        #expect(Event.failed(.boom).error == .boom)
        #expect(Event.value(3).error == nil)
    }

    @Test func mapTransformsOnlyValues() {
        #expect(Event.value(2).map { "\($0 * 10)" } == .value("20"))
        #expect(Event.failed(.boom).map { "\($0)" } == .failed(.boom))
        #expect(Event.completed.map { "\($0)" } == .completed)
        #expect(Event.interrupted.map { "\($0)" } == .interrupted)
    }

    @Test func mapErrorTransformsOnlyFailures() {
        let mapped: Signal<Int, TestError>.Event = Event.failed(.boom).mapError { _ in TestError.other }
        #expect(mapped == .failed(.other))
        #expect(Event.value(1).mapError { _ in TestError.other } == .value(1))
        #expect(Event.completed.mapError { _ in TestError.other } == .completed)
    }

    @Test func descriptions() {
        #expect(Event.value(1).description == "VALUE 1")
        #expect(Event.failed(.boom).description == "FAILED boom")
        #expect(Event.completed.description == "COMPLETED")
        #expect(Event.interrupted.description == "INTERRUPTED")
    }
}
