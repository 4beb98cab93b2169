import GoalTestSlots
import Testing

@testable import GoalReactive

/// `<~`: sources, targets, and the two ways a binding ends.
@Suite("Binding", .slotted)
struct BindingTests {
    @Test func propertyToPropertyTakesTheCurrentValueAtOnceThenFollows() {
        let source = MutableProperty(1)
        let target = MutableProperty(0)
        var values: [Int] = []
        target.signal.observeValues { values.append($0) }
        let disposable = target <~ source
        #expect(disposable != nil)
        #expect(target.value == 1)
        source.value = 2
        #expect(values == [1, 2])
        disposable?.dispose()
        source.value = 3
        #expect(values == [1, 2])
        #expect(target.value == 2)
    }

    @Test func producerAndSignalSources() {
        let target = MutableProperty(0)
        var values: [Int] = []
        target.signal.observeValues { values.append($0) }
        target <~ SignalProducer(values: 1, 2, 3)
        #expect(values == [1, 2, 3])
        let (signal, input) = Signal<Int, Never>.pipe()
        target <~ signal
        #expect(values == [1, 2, 3])
        input.send(value: 4)
        #expect(values == [1, 2, 3, 4])
        #expect(target.value == 4)
    }

    @Test func bindingEndsWhenTheTargetDeinitializesAndDoesNotRetainIt() {
        let source = MutableProperty(1)
        var log: [String] = []
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.append("source start ended") }
            lifetime += source.producer.start(observer)
        }
        var target: MutableProperty<Int>? = MutableProperty(0)
        weak let weakTarget = target
        target?.signal.observe { log.append("target \($0)") }
        target! <~ producer
        source.value = 2
        target = nil
        #expect(weakTarget == nil)
        #expect(log == ["target VALUE 1", "target VALUE 2", "target COMPLETED", "source start ended"])
        source.value = 3
        #expect(log.count == 4)
    }

    @Test func bindingFromASignalIsDetachedWhenTheTargetDies() {
        var signalDisposed = false
        var target: MutableProperty<Int>? = MutableProperty(0)
        weak let weakTarget = target
        let input: Signal<Int, Never>.Observer = {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.core.lifetime.observeEnded { signalDisposed = true }
            target! <~ signal
            return input
        }()
        // The `Signal` object is gone; only the binding's observation keeps the signal alive.
        input.send(value: 5)
        #expect(weakTarget?.value == 5)
        #expect(!signalDisposed)
        target = nil
        #expect(weakTarget == nil)
        // The observation was removed, so the unreferenced, unobserved signal was disposed silently.
        #expect(signalDisposed)
    }

    @Test func sourceCompletionEndsTheBindingButNotTheTarget() {
        let (signal, input) = Signal<Int, Never>.pipe()
        var log: [String] = []
        let source = SignalProducer<Int, Never> { observer, lifetime in
            lifetime.observeEnded { log.append("source ended") }
            lifetime += signal.observe(observer)
        }
        let target = MutableProperty(0)
        target.signal.observe { log.append("target \($0)") }
        target <~ source
        input.send(value: 1)
        input.sendCompleted()
        #expect(log == ["target VALUE 1", "source ended"])
        #expect(target.value == 1)
        target.value = 2
        #expect(log == ["target VALUE 1", "source ended", "target VALUE 2"])
    }

    @Test func bindingToAnEndedLifetimeAppliesNothing() {
        var applied: [Int] = []
        let ended = BindingTarget<Int>(lifetime: .empty) { applied.append($0) }
        #expect((ended <~ SignalProducer(value: 1)) == nil)
        let none: MutableProperty<Int>? = nil
        #expect((none <~ Property(value: 2)) == nil)
        #expect(applied.isEmpty)
    }

    @Test func bindingTargetWithASchedulerAppliesThere() {
        let scheduler = TestScheduler()
        let (lifetime, token) = Lifetime.make()
        var applied: [Int] = []
        let target = BindingTarget<Int>(on: scheduler, lifetime: lifetime) { applied.append($0) }
        let source = MutableProperty(1)
        target <~ source
        source.value = 2
        #expect(applied.isEmpty)
        scheduler.run()
        #expect(applied == [1, 2])
        token.dispose()
        source.value = 3
        scheduler.run()
        #expect(applied == [1, 2])
    }

    @Test func keyPathTargetHoldsItsObjectWeakly() {
        final class Label { var text = "" }
        var label: Label? = Label()
        weak let weakLabel = label
        let (lifetime, token) = Lifetime.make()
        let title = MutableProperty("a")
        BindingTarget(lifetime: lifetime, object: label!, keyPath: \.text) <~ title
        title.value = "b"
        #expect(label?.text == "b")
        label = nil
        #expect(weakLabel == nil)
        title.value = "c"
        withExtendedLifetime(token) {}
    }

    @Test func optionalTargetsObserversAndActions() {
        let optional = MutableProperty<Int?>(nil)
        optional <~ Property(value: 7)
        #expect(optional.value == 7)

        let (signal, input) = Signal<Int, Never>.pipe()
        var received: [String] = []
        signal.observe { received.append("\($0)") }
        input <~ SignalProducer(values: 1, 2)
        #expect(received == ["VALUE 1", "VALUE 2"])

        var executed: [Int] = []
        let action = Action<Int, Never, Never> { input in
            executed.append(input)
            return .empty
        }
        action <~ SignalProducer(values: 3, 4)
        #expect(executed == [3, 4])
    }
}
