import Dispatch
import GoalTestSlots
import Synchronization
import Testing

@testable import GoalReactive

@Suite("AnyDisposable and NopDisposable", .slotted)
struct AnyDisposableTests {
    @Test func plainDisposableTracksDisposal() {
        let disposable = AnyDisposable()
        #expect(disposable.isDisposed == false)
        disposable.dispose()
        #expect(disposable.isDisposed)
    }

    @Test func actionRunsExactlyOnce() {
        var runs = 0
        let disposable = AnyDisposable { runs += 1 }
        #expect(runs == 0)
        disposable.dispose()
        disposable.dispose()
        #expect(runs == 1)
        #expect(disposable.isDisposed)
    }

    @Test func actionRunsExactlyOnceUnderConcurrentDisposal() {
        let runs = Atomic<Int>(0)
        let disposable = AnyDisposable { runs.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { disposable.dispose() }
        }
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func actionIsReleasedAfterRunning() {
        weak var weakTracker: Tracker?
        let disposable: AnyDisposable
        do {
            let tracker = Tracker()
            weakTracker = tracker
            disposable = AnyDisposable { _ = tracker }
        }
        #expect(weakTracker != nil)
        disposable.dispose()
        #expect(weakTracker == nil)
    }

    @Test func wrappingForwardsDisposal() {
        let inner = AnyDisposable()
        let outer = AnyDisposable(inner)
        outer.dispose()
        #expect(inner.isDisposed)
    }

    @Test func nopDisposableIsAlwaysDisposed() {
        #expect(NopDisposable.shared.isDisposed)
        NopDisposable.shared.dispose()
        #expect(NopDisposable.shared.isDisposed)
    }
}
