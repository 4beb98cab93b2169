import GoalTestSlots
import Testing

@testable import GoalReactive

/// Memory and lifetime rules of `Signal` (ReactiveSwift's "signal lifetime" specs).
@Suite("Signal lifetime", .slotted)
struct SignalLifetimeTests {
    @Test func terminationDeliversThenReleasesObserversThenEndsLifetime() {
        var log: [String] = []
        weak var weakTracker: Tracker?
        var input: Signal<Int, Never>.Observer?
        var signalLifetime: Lifetime?
        let signal = Signal<Int, Never> { observer, lifetime in
            input = observer
            signalLifetime = lifetime
        }
        signalLifetime?.observeEnded {
            log.append("ended, observer released: \(weakTracker == nil)")
        }
        do {
            let tracker = Tracker()
            weakTracker = tracker
            signal.observe { event in
                withExtendedLifetime(tracker) { log.append("\(event)") }
            }
        }
        #expect(weakTracker != nil)
        input?.sendCompleted()
        #expect(log == ["COMPLETED", "ended, observer released: true"])
        #expect(signalLifetime?.hasEnded == true)
    }

    @Test func pipeDisposableIsDisposedOnTermination() {
        let cleanup = AnyDisposable()
        let (signal, input) = Signal<Int, Never>.pipe(disposable: cleanup)
        #expect(cleanup.isDisposed == false)
        input.send(value: 1)
        #expect(cleanup.isDisposed == false)
        input.sendInterrupted()
        #expect(cleanup.isDisposed)
        withExtendedLifetime(signal) {}
    }

    @Test func unobservedUnreferencedSignalIsReleasedAndDisposedSilently() {
        var log: [String] = []
        weak var weakSignal: Signal<Int, Never>?
        var input: Signal<Int, Never>.Observer?
        do {
            let signal = Signal<Int, Never> { observer, lifetime in
                input = observer
                lifetime.observeEnded { log.append("ended") }
            }
            weakSignal = signal
            #expect(log.isEmpty)
        }
        #expect(weakSignal == nil)
        #expect(log == ["ended"])
        input?.send(value: 1)
        input?.sendCompleted()
        #expect(log == ["ended"])
    }

    @Test func observedSignalStaysAliveWithoutAReference() {
        var log: [String] = []
        weak var weakSignal: Signal<Int, Never>?
        var input: Signal<Int, Never>.Observer?
        var observation: (any Disposable)?
        do {
            let signal = Signal<Int, Never> { observer, lifetime in
                input = observer
                lifetime.observeEnded { log.append("ended") }
            }
            weakSignal = signal
            observation = signal.observe { log.append("\($0)") }
        }
        // The `Signal` object itself is gone, but the observed stream keeps working.
        #expect(weakSignal == nil)
        input?.send(value: 1)
        #expect(log == ["VALUE 1"])
        // Last observer leaves and nothing references the signal: silent disposal, no event.
        observation?.dispose()
        #expect(log == ["VALUE 1", "ended"])
        input?.send(value: 2)
        #expect(log == ["VALUE 1", "ended"])
    }

    @Test func referencedSignalSurvivesLosingItsLastObserver() {
        var log: [String] = []
        let (signal, input) = Signal<Int, Never>.pipe(disposable: AnyDisposable { log.append("disposed") })
        signal.observeValues { log.append("A \($0)") }?.dispose()
        input.send(value: 1)
        signal.observeValues { log.append("B \($0)") }
        input.send(value: 2)
        #expect(log == ["B 2"])
    }

    @Test func releasingTheInputObserverInterruptsTheSignal() {
        var log: [String] = []
        var input: Signal<Int, Never>.Observer?
        let signal = Signal<Int, Never> { observer, lifetime in
            input = observer
            lifetime.observeEnded { log.append("ended") }
        }
        signal.observe { log.append("\($0)") }
        input?.send(value: 1)
        input = nil
        #expect(log == ["VALUE 1", "INTERRUPTED", "ended"])
    }

    @Test func generatorThatDropsItsObserverInterruptsAtOnce() {
        let signal = Signal<Int, Never> { _, _ in }
        var log: [String] = []
        signal.observe { log.append("\($0)") }
        #expect(log == ["INTERRUPTED"])
    }

    @Test func observersAndTheirCapturesAreReleasedAfterTermination() {
        weak var weakTracker: Tracker?
        let (signal, input) = Signal<Int, Never>.pipe()
        do {
            let tracker = Tracker()
            weakTracker = tracker
            signal.observeValues { _ in _ = tracker }
        }
        #expect(weakTracker != nil)
        input.sendCompleted()
        #expect(weakTracker == nil)
    }

    @Test func chainedSignalsCollapseWhenTheLastObserverLeaves() {
        var log: [String] = []
        let (source, input) = Signal<Int, Never>.pipe()
        weak var weakDerived: Signal<Int, Never>?
        var derivedEnded = false
        var observation: (any Disposable)?
        do {
            let derived = Signal<Int, Never> { output, lifetime in
                lifetime += source.observe(output)
                lifetime.observeEnded { derivedEnded = true }
            }
            weakDerived = derived
            observation = derived.observeValues { log.append("\($0)") }
        }
        input.send(value: 1)
        #expect(weakDerived == nil)
        #expect(derivedEnded == false)
        observation?.dispose()
        #expect(derivedEnded)
        input.send(value: 2)
        #expect(log == ["1"])
    }
}
