import Dispatch
import Foundation
import GoalTestSlots
import Testing

@testable import GoalReactive

/// Counts how many callers are inside a section at once, to prove serial delivery.
private final class ConcurrencyProbe: @unchecked Sendable {
    // `@unchecked Sendable`: all state is only touched under `lock`.
    private let lock = NSLock()
    private var inside = 0
    private var maxInside = 0
    private var count = 0

    func enter() {
        lock.withLock {
            inside += 1
            maxInside = max(maxInside, inside)
            count += 1
        }
    }

    func leave() { lock.withLock { inside -= 1 } }

    var maximum: Int { lock.withLock { maxInside } }
    var total: Int { lock.withLock { count } }
}

@Suite("operators under concurrent sends", .slotted)
struct OperatorThreadingTests {
    private let threads = 4
    private let perThread = 500

    @Test func mergeDeliversSeriallyWithoutLosingValues() {
        let pipes = (0..<threads).map { _ in Signal<Int, Never>.pipe() }
        let probe = ConcurrencyProbe()
        Signal.merge(pipes.map(\.output)).observeValues { _ in
            probe.enter()
            probe.leave()
        }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { pipes[index].input.send(value: value) }
        }
        #expect(probe.total == threads * perThread)
        #expect(probe.maximum == 1)
    }

    @Test func combineLatestEndsWithTheLastValueOfEveryInput() {
        let pipes = (0..<threads).map { _ in Signal<Int, Never>.pipe() }
        let latest = LatestValue<[Int]>()
        let probe = ConcurrencyProbe()
        Signal.combineLatest(pipes.map(\.output)).observeValues { values in
            probe.enter()
            latest.value = values
            probe.leave()
        }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 1...perThread { pipes[index].input.send(value: value) }
        }
        #expect(latest.value == Array(repeating: perThread, count: threads))
        #expect(probe.maximum == 1)
    }

    @Test func zipPairsEveryValueUnderConcurrentSends() {
        let pipes = (0..<threads).map { _ in Signal<Int, Never>.pipe() }
        let sums = Log<Int>()
        Signal.zip(pipes.map(\.output)).observeValues { sums.append($0.reduce(0, +)) }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { pipes[index].input.send(value: value) }
        }
        #expect(sums.all == (0..<perThread).map { $0 * threads })
    }

    @Test func flattenMergeOfInnersOnQueueSchedulersCompletesWithEveryValue() async {
        let inners = (0..<threads).map { index in
            SignalProducer<Int, Never>(0..<perThread).start(on: QueueScheduler(name: "inner \(index)"))
        }
        let probe = ConcurrencyProbe()
        let completed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            SignalProducer<SignalProducer<Int, Never>, Never>(inners)
                .flatten(.merge)
                .start { event in
                    switch event {
                    case .value:
                        probe.enter()
                        probe.leave()
                    case .completed: continuation.resume(returning: true)
                    case .interrupted: continuation.resume(returning: false)
                    }
                }
        }
        #expect(completed)
        #expect(probe.total == threads * perThread)
        #expect(probe.maximum == 1)
    }

    @Test func disposingFromAnotherThreadWhileValuesFlowStopsTheUpstream() async {
        let scheduler = QueueScheduler(name: "upstream")
        let ended = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let producer = SignalProducer<Int, Never> { observer, lifetime in
                lifetime.observeEnded { continuation.resume(returning: true) }
                var value = 0
                while !lifetime.hasEnded {
                    value += 1
                    observer.send(value: value)
                }
            }
            let disposable = producer.start(on: scheduler).map { $0 * 2 }.filter { _ in true }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { disposable.dispose() }
        }
        #expect(ended)
    }
}
