import GoalTestSlots
import Testing

@testable import GoalReactive

/// Issue 14 point 12: ReactiveSwift 7 spellings that its README, the seeds and common code use compile unchanged
/// against GoalReactive, and behave as ReactiveSwift documents.
@Suite("ReactiveSwift's spellings: Atomic, reentrantUnserializedPipe, take(untilReplacement:), add(nil)", .slotted)
struct ReactiveSwiftSpellingTests {
    @Test("Atomic: value, modify, withValue, swap")
    func atomic() {
        let counter = Atomic(0)
        counter.modify { $0 += 1 }
        counter.value += 1
        #expect(counter.value == 2)
        #expect(counter.withValue { $0 * 10 } == 20)
        #expect(counter.swap(7) == 2)
        #expect(counter.value == 7)
        let doubled: Int = counter.modify { value in
            value *= 2
            return value
        }
        #expect(doubled == 14)
    }

    @Test("Atomic is atomic: 8 threads × 1,000 increments")
    func atomicUnderContention() async {
        let counter = Atomic(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { counter.modify { $0 += 1 } } }
            }
        }
        #expect(counter.value == 8_000)
    }

    @Test(
        "reentrantUnserializedPipe queues a send made from inside an observer until every observer saw the current one"
    )
    func reentrantPipe() {
        let (signal, input) = Signal<Int, Never>.reentrantUnserializedPipe()
        var log: [String] = []
        signal.observeValues { value in
            log.append("A begin \(value)")
            if value == 1 {
                input.send(value: 2)
                input.send(value: 3)
            }
            log.append("A end \(value)")
        }
        signal.observeValues { value in log.append("B \(value)") }
        input.send(value: 1)
        #expect(
            log == ["A begin 1", "A end 1", "B 1", "A begin 2", "A end 2", "B 2", "A begin 3", "A end 3", "B 3"]
        )
        input.send(value: 4)
        #expect(log.suffix(3) == ["A begin 4", "A end 4", "B 4"], "the queue drained; the next send is delivered")
    }

    @Test(
        "reentrantUnserializedPipe: a terminal event sent re-entrantly comes after the current value and the queued ones"
    )
    func reentrantPipeTerminal() {
        let (signal, input) = Signal<Int, Never>.reentrantUnserializedPipe()
        var a: [Signal<Int, Never>.Event] = []
        var b: [Signal<Int, Never>.Event] = []
        signal.observe { event in
            a.append(event)
            if case .value(1) = event {
                input.send(value: 2)
                input.sendCompleted()
                input.send(value: 3)  // after the terminal event: dropped
            }
        }
        signal.observe { b.append($0) }
        input.send(value: 1)
        #expect(a == [.value(1), .value(2), .completed])
        #expect(b == [.value(1), .value(2), .completed])
    }

    @Test("unserializedPipe still delivers a re-entrant send at once, nested (MutableProperty's behaviour)")
    func unserializedPipeNests() {
        let (signal, input) = Signal<Int, Never>.unserializedPipe()
        var log: [String] = []
        signal.observeValues { value in
            if value == 1 { input.send(value: 2) }
            log.append("A \(value)")
        }
        signal.observeValues { value in log.append("B \(value)") }
        input.send(value: 1)
        #expect(log == ["A 2", "B 2", "A 1", "B 1"])
    }

    @Test("take(untilReplacement:) forwards self until the replacement's first event, then only the replacement")
    func takeUntilReplacement() {
        let (original, originalInput) = Signal<Int, Never>.pipe()
        let (replacement, replacementInput) = Signal<Int, Never>.pipe()
        var events: [Signal<Int, Never>.Event] = []
        original.take(untilReplacement: replacement).observe { events.append($0) }
        originalInput.send(value: 1)
        replacementInput.send(value: 10)
        originalInput.send(value: 2)
        originalInput.sendCompleted()
        replacementInput.send(value: 11)
        replacementInput.sendCompleted()
        #expect(events == [.value(1), .value(10), .value(11), .completed])
    }

    @Test("take(untilReplacement:) ignores self's completion: the result waits for its replacement")
    func completionOfSelfIsIgnored() {
        let (original, originalInput) = Signal<Int, Never>.pipe()
        let (replacement, replacementInput) = Signal<Int, Never>.pipe()
        var events: [Signal<Int, Never>.Event] = []
        original.take(untilReplacement: replacement).observe { events.append($0) }
        originalInput.send(value: 1)
        originalInput.sendCompleted()
        replacementInput.send(value: 2)
        #expect(events == [.value(1), .value(2)])
    }

    @Test("SignalProducer.take(untilReplacement:) starts both per start")
    func producerReplacement() {
        let (replacement, replacementInput) = Signal<Int, Never>.pipe()
        var values: [Int] = []
        SignalProducer<Int, Never>(value: 1)
            .concat(.never)
            .take(untilReplacement: SignalProducer(replacement))
            .startWithValues { values.append($0) }
        replacementInput.send(value: 5)
        #expect(values == [1, 5])
    }
}
