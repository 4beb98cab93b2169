import GoalTestSlots
import Testing

@testable import GoalReactive

// Operators written the way the operator library will write them: once on Signal, lifted to producers.
extension Signal {
    fileprivate func testMap<U>(_ transform: @escaping (Value) -> U) -> Signal<U, Error> {
        Signal<U, Error> { output, lifetime in
            lifetime += self.observe { output.send($0.map(transform)) }
        }
    }

    fileprivate func testTake(first count: Int) -> Signal<Value, Error> {
        Signal { output, lifetime in
            var taken = 0
            lifetime += self.observe { event in
                guard case let .value(value) = event else { return output.send(event) }
                taken += 1
                output.send(value: value)
                if taken == count { output.sendCompleted() }
            }
        }
    }

    /// Pairs each value of `self` with the latest value of `other` (ignores `other`'s terminal events).
    fileprivate func testWithLatest<U>(from other: Signal<U, Error>) -> Signal<(Value, U), Error> {
        Signal<(Value, U), Error> { output, lifetime in
            var latest: U?
            lifetime += other.observeResult { if case let .success(value) = $0 { latest = value } }
            lifetime += self.observe { event in
                switch event {
                case let .value(value): if let latest { output.send(value: (value, latest)) }
                case let .failed(error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    fileprivate func testMap<U>(_ transform: @escaping (Value) -> U) -> SignalProducer<U, Error> {
        lift { $0.testMap(transform) }
    }

    fileprivate func testTake(first count: Int) -> SignalProducer<Value, Error> {
        lift { $0.testTake(first: count) }
    }
}

@Suite("SignalProducer.lift", .slotted)
struct SignalProducerLiftTests {
    @Test func liftAppliesTheSignalOperatorPerStart() {
        var starts = 0
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts += 1
            observer.send(value: starts)
            observer.sendCompleted()
        }
        .testMap { "#\($0)" }
        var log: [String] = []
        producer.start { log.append("\($0)") }
        producer.start { log.append("\($0)") }
        #expect(log == ["VALUE #1", "COMPLETED", "VALUE #2", "COMPLETED"])
    }

    @Test func earlyTerminationDownstreamInterruptsUpstream() {
        var iterations = 0
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.append("upstream ended") }
            while !lifetime.hasEnded && iterations < 100 {
                iterations += 1
                observer.send(value: iterations)
            }
        }
        producer.testTake(first: 5).start { log.append("\($0)") }
        #expect(iterations == 5)
        #expect(log == ["VALUE 1", "VALUE 2", "VALUE 3", "VALUE 4", "VALUE 5", "COMPLETED", "upstream ended"])
    }

    @Test func disposingTheLiftedStartInterruptsUpstreamOnce() {
        var log: [String] = []
        let upstream = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.append("upstream ended") }
            observer.send(value: 1)
            lifetime.observeEnded { _ = observer }
        }
        let disposable = upstream.testMap { $0 * 2 }.start { log.append("\($0)") }
        disposable.dispose()
        disposable.dispose()
        #expect(log == ["VALUE 2", "INTERRUPTED", "upstream ended"])
    }

    @Test func upstreamFailurePropagates() {
        var log: [String] = []
        SignalProducer<Int, TestError>(error: .boom).testMap { $0 }.start { log.append("\($0)") }
        #expect(log == ["FAILED boom"])
    }

    @Test func binaryLiftStartsTheArgumentFirst() {
        var log: [String] = []
        let source = SignalProducer<Int, Never> { observer, _ in
            log.append("source started")
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let other = SignalProducer<String, Never> { observer, lifetime in
            log.append("other started")
            observer.send(value: "a")
            lifetime.observeEnded { log.append("other ended") }
            lifetime.observeEnded { _ = observer }
        }
        source.lift(Signal.testWithLatest(from:))(other).start { log.append("\($0)") }
        #expect(log == ["other started", "source started", "VALUE (1, \"a\")", "COMPLETED", "other ended"])
    }

    @Test func liftLeftStartsTheReceiverFirst() {
        var log: [String] = []
        let source = SignalProducer<Int, Never> { observer, lifetime in
            log.append("source started")
            lifetime.observeEnded { _ = observer }
        }
        let other = SignalProducer<String, Never> { observer, lifetime in
            log.append("other started")
            lifetime.observeEnded { _ = observer }
        }
        let disposable = source.liftLeft(Signal.testWithLatest(from:))(other).start { log.append("\($0)") }
        disposable.dispose()
        #expect(log == ["source started", "other started", "INTERRUPTED"])
    }
}
