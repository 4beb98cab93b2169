import GoalTestSlots
import Testing

@testable import GoalReactive

/// How long a start lives (issue 14 point 11), after ReactiveSwift's SignalProducerSpec ("init", "startWithSignal"):
/// a started producer lives until it terminates or is disposed, even if its start handler keeps no reference to its
/// observer — the start's interrupt handle keeps it, and so does every operator holding that handle.
@Suite("SignalProducer: a start lives until it terminates or is disposed", .slotted)
struct SignalProducerLifetimeTests {
    /// A producer whose start handler ties a resource to the start's lifetime and lets go of its observer.
    private func holdingOnly(_ resource: any Disposable) -> SignalProducer<Int, Never> {
        SignalProducer { _, lifetime in lifetime += resource }
    }

    @Test func aStartWhoseHandlerKeepsNoObserverLivesUntilItsDisposableIsDisposed() {
        let resource = AnyDisposable()
        var log: [String] = []
        let disposable = holdingOnly(resource).start { log.append("\($0)") }
        #expect(!resource.isDisposed)
        #expect(log.isEmpty)
        disposable.dispose()
        #expect(resource.isDisposed)
        #expect(log == ["INTERRUPTED"])
    }

    @Test func startWithSignalLivesUntilTheInterruptHandleIsDisposed() {
        let resource = AnyDisposable()
        var log: [String] = []
        var interruptHandle: (any Disposable)?
        holdingOnly(resource).startWithSignal { signal, handle in
            signal.observe { log.append("\($0)") }
            interruptHandle = handle
        }
        #expect(!resource.isDisposed)
        interruptHandle?.dispose()
        #expect(resource.isDisposed)
        #expect(log == ["INTERRUPTED"])
    }

    @Test func aLiftedStartLivesUntilItsDisposableIsDisposed() {
        let resource = AnyDisposable()
        var log: [String] = []
        let disposable = holdingOnly(resource)
            .map { $0 + 1 }
            .combineLatest(with: SignalProducer<Int, Never>(value: 0))
            .start { log.append("\($0)") }
        #expect(!resource.isDisposed)
        #expect(log.isEmpty)
        disposable.dispose()
        #expect(resource.isDisposed)
        #expect(log == ["INTERRUPTED"])
    }

    @Test func thenWaitsForAFirstProducerThatKeepsNoObserver() {
        let resource = AnyDisposable()
        var log: [String] = []
        let disposable = holdingOnly(resource).then(SignalProducer<Int, Never>(value: 2)).start { log.append("\($0)") }
        #expect(log.isEmpty)
        disposable.dispose()
        #expect(log == ["INTERRUPTED"])
        #expect(resource.isDisposed)
    }

    @Test func aDisposedStartReleasesWhatItsHandlerTiedToItsLifetime() {
        weak var released: Tracker?
        var disposable: (any Disposable)?
        do {
            let tracker = Tracker()
            released = tracker
            disposable = SignalProducer<Int, Never> { _, lifetime in lifetime.observeEnded { _ = tracker } }
                .map { $0 }
                .start()
        }
        #expect(released != nil)
        disposable?.dispose()
        #expect(released == nil)
    }

    @Test func theInterruptHandleRetainsTheInputObserverUntilItIsReleased() {
        weak var releasedObserver: Signal<Int, Never>.Observer?
        var input: Signal<Int, Never>.Observer?
        var disposable: (any Disposable)? = SignalProducer<Int, Never> { observer, _ in input = observer }.start()
        releasedObserver = input
        input?.sendCompleted()
        input = nil
        #expect(releasedObserver != nil)
        #expect(disposable != nil)
        disposable = nil
        #expect(releasedObserver == nil)
    }

    @Test func anUnobservedStartIsStillDisposedWhenSetupKeepsNothing() {
        // ReactiveSwift: "should dispose of the added disposable if the signal is unretained and unobserved upon
        // exiting the scope" — keeping starts alive must not keep unobserved ones.
        let resource = AnyDisposable()
        holdingOnly(resource).startWithSignal { _, _ in }
        #expect(resource.isDisposed)
    }
}
