import Dispatch
import Foundation
import GoalTestSlots
import Synchronization
import Testing

@testable import GoalReactive

@Suite("ImmediateScheduler and QueueScheduler", .slotted)
struct SchedulerTests {
    @Test func immediateSchedulerRunsSynchronously() {
        var log: [String] = []
        let disposable = ImmediateScheduler().schedule { log.append("ran") }
        log.append("returned")
        #expect(disposable == nil)
        #expect(log == ["ran", "returned"])
    }

    @Test func queueSchedulerIsAsynchronousAndOrdered() async {
        let scheduler = QueueScheduler(name: "test.queue")
        let log = Log<String>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                scheduler.schedule { log.append("\(index)") }
            }
            log.append("scheduled")
            scheduler.schedule { continuation.resume() }
        }
        let entries = log.all
        #expect(entries.count == 101)
        #expect(entries.filter { $0 != "scheduled" } == (0..<100).map { "\($0)" })
    }

    @Test func queueSchedulerRunsActionsOnItsQueue() async {
        let scheduler = QueueScheduler(name: "test.queue.label")
        let key = DispatchSpecificKey<Int>()
        scheduler.queue.setSpecific(key: key, value: 7)
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            scheduler.schedule { continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(seen == 7)
    }

    @Test func queueSchedulerDisposalCancelsPendingWork() async {
        let scheduler = QueueScheduler()
        let gate = DispatchSemaphore(value: 0)
        let log = Log<String>()
        scheduler.schedule { gate.wait() }
        let cancelled = scheduler.schedule { log.append("cancelled") }
        scheduler.schedule { log.append("kept") }
        cancelled?.dispose()
        gate.signal()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule { continuation.resume() }
        }
        #expect(log.all == ["kept"])
    }

    @Test func queueSchedulerRunsAfterADate() async {
        let scheduler = QueueScheduler()
        let start = Date()
        let elapsed = await withCheckedContinuation { (continuation: CheckedContinuation<TimeInterval, Never>) in
            scheduler.schedule(after: start.addingTimeInterval(0.05)) {
                continuation.resume(returning: Date().timeIntervalSince(start))
            }
        }
        #expect(elapsed >= 0.04)
    }

    @Test func queueSchedulerRepeatsUntilDisposed() async {
        let scheduler = QueueScheduler()
        let ticks = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        let disposable = SerialDisposable()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let timer = scheduler.schedule(after: Date(), interval: .milliseconds(5), leeway: .milliseconds(1)) {
                // Runs on the serial queue: resume exactly once, on the third tick.
                if ticks.add(1, ordering: .relaxed).newValue == 3 {
                    disposable.dispose()
                    stopped.store(true, ordering: .relaxed)
                    continuation.resume()
                }
            }
            // If the third tick already happened, `disposable` was disposed and disposes `timer` at once.
            disposable.inner = timer
        }
        // Let a would-be fourth tick pass, then check that the timer stayed stopped.
        try? await Task.sleep(for: .milliseconds(50))
        let didStop = stopped.load(ordering: .relaxed)
        let tickCount = ticks.load(ordering: .relaxed)
        #expect(didStop)
        #expect(tickCount == 3)
    }
}

/// Serialized: `MainScheduler`'s "nothing pending" rule is process-wide, so these tests must not overlap.
@Suite("MainScheduler", .serialized, .slotted)
struct MainSchedulerTests {
    @MainActor
    @Test func runsSynchronouslyOnTheMainQueueWhenNothingIsPending() {
        var log: [String] = []
        let disposable = MainScheduler().schedule { log.append("ran") }
        log.append("returned")
        #expect(disposable == nil)
        #expect(log == ["ran", "returned"])
    }

    @MainActor
    @Test func nestedSchedulingIsDeferredToKeepOrder() async {
        let scheduler = MainScheduler()
        let log = Log<String>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule {
                log.append("outer start")
                scheduler.schedule {
                    log.append("inner")
                    continuation.resume()
                }
                log.append("outer end")
            }
        }
        #expect(log.all == ["outer start", "outer end", "inner"])
    }

    @Test func schedulingFromABackgroundThreadRunsOnTheMainQueue() async {
        let scheduler = MainScheduler()
        let onMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                scheduler.schedule { continuation.resume(returning: MainScheduler.isOnMainQueue) }
            }
        }
        #expect(onMain)
    }
}
