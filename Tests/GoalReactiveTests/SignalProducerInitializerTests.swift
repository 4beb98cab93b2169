import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("SignalProducer initializers", .slotted)
struct SignalProducerInitializerTests {
    private func events<V, E>(_ producer: SignalProducer<V, E>) -> [String] {
        var log: [String] = []
        producer.start { log.append("\($0)") }
        return log
    }

    @Test func value() {
        let producer = SignalProducer<Int, Never>(value: 1)
        #expect(events(producer) == ["VALUE 1", "COMPLETED"])
        #expect(events(producer) == ["VALUE 1", "COMPLETED"])
    }

    @Test func valuesVariadicAndSequence() {
        #expect(events(SignalProducer<Int, Never>(values: 1, 2, 3)) == ["VALUE 1", "VALUE 2", "VALUE 3", "COMPLETED"])
        #expect(events(SignalProducer<Int, Never>([4, 5])) == ["VALUE 4", "VALUE 5", "COMPLETED"])
        #expect(events(SignalProducer<Int, Never>([Int]())) == ["COMPLETED"])
    }

    @Test func sequenceStopsIteratingWhenInterrupted() {
        var iterated: [Int] = []
        let numbers = (1...100).lazy.map { value -> Int in
            iterated.append(value)
            return value
        }
        let producer = SignalProducer<Int, Never>(numbers)
        producer.startWithSignal { signal, interruptHandle in
            signal.observeValues { if $0 == 2 { interruptHandle.dispose() } }
        }
        #expect(iterated == [1, 2])
    }

    @Test func errorAndResult() {
        #expect(events(SignalProducer<Int, TestError>(error: .boom)) == ["FAILED boom"])
        #expect(events(SignalProducer<Int, TestError>(result: .success(3))) == ["VALUE 3", "COMPLETED"])
        #expect(events(SignalProducer<Int, TestError>(result: .failure(.other))) == ["FAILED other"])
    }

    @Test func lazyValueRunsItsActionAtStartTime() {
        var calls = 0
        let producer = SignalProducer<Int, Never> { () -> Int in
            calls += 1
            return calls * 10
        }
        #expect(calls == 0)
        #expect(events(producer) == ["VALUE 10", "COMPLETED"])
        #expect(events(producer) == ["VALUE 20", "COMPLETED"])
    }

    @Test func lazyResult() {
        let producer = SignalProducer<Int, TestError> { () -> Result<Int, TestError> in .failure(.boom) }
        #expect(events(producer) == ["FAILED boom"])
    }

    @Test func emptyAndNever() {
        #expect(events(SignalProducer<Int, Never>.empty) == ["COMPLETED"])
        #expect(events(SignalProducer<Int, Never>.never).isEmpty)
        var log: [String] = []
        let disposable = SignalProducer<Int, Never>.never.start { log.append("\($0)") }
        disposable.dispose()
        disposable.dispose()
        #expect(log == ["INTERRUPTED"])
    }

    @Test func fromSignalObservesOnEveryStartAndDisposingDetachesOnlyThatStart() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let producer = SignalProducer(signal)
        var log: [String] = []
        let first = producer.start { log.append("first \($0)") }
        signal.producer.start { log.append("second \($0)") }
        input.send(value: 1)
        first.dispose()
        input.send(value: 2)
        input.sendCompleted()
        #expect(log == ["first VALUE 1", "second VALUE 1", "first INTERRUPTED", "second VALUE 2", "second COMPLETED"])
        #expect(events(producer) == ["INTERRUPTED"])
    }
}
