import GoalTestSlots
import Testing

@testable import GoalReactive

/// `Property`: constant, capturing and composed flavours.
@Suite("Property", .slotted)
struct PropertyTests {
    @Test func constantPropertyReplaysAndCompletesAndItsSignalHasTerminated() {
        let property = Property(value: 5)
        #expect(property.value == 5)
        var producerEvents: [String] = []
        property.producer.start { producerEvents.append("\($0)") }
        #expect(producerEvents == ["VALUE 5", "COMPLETED"])
        var signalEvents: [String] = []
        #expect(property.signal.observe { signalEvents.append("\($0)") } == nil)
        #expect(signalEvents == ["INTERRUPTED"])
    }

    @Test func capturingPropertyForwardsAndRetainsItsSource() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        weak let weakSource = source
        let captured = Property(capturing: source!)
        var events: [String] = []
        captured.producer.start { events.append("\($0)") }
        source?.value = 2
        source = nil
        #expect(weakSource != nil)
        #expect(captured.value == 2)
        weakSource?.value = 3
        #expect(events == ["VALUE 1", "VALUE 2", "VALUE 3"])
    }

    @Test func composedPropertyCachesDoesNotRetainAndCompletesWithItsSource() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        weak let weakSource = source
        let composed = Property(source!)
        var producerEvents: [String] = []
        var signalEvents: [String] = []
        composed.producer.start { producerEvents.append("\($0)") }
        composed.signal.observe { signalEvents.append("\($0)") }
        source?.value = 2
        #expect(composed.value == 2)
        source = nil
        #expect(weakSource == nil)
        #expect(composed.value == 2)
        #expect(producerEvents == ["VALUE 1", "VALUE 2", "COMPLETED"])
        #expect(signalEvents == ["VALUE 2", "COMPLETED"])
        var lateEvents: [String] = []
        composed.producer.start { lateEvents.append("\($0)") }
        #expect(lateEvents == ["VALUE 2", "COMPLETED"])
    }

    @Test func chainOfComposedPropertiesCompletesWhenTheUltimateSourceDies() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        weak let weakSource = source
        // Intermediate properties are released at once: the chain must still work.
        let last = source!.map { $0 * 10 }.map { "\($0)" }
        var events: [String] = []
        last.producer.start { events.append("\($0)") }
        source?.value = 2
        source = nil
        #expect(weakSource == nil)
        #expect(events == ["VALUE 10", "VALUE 20", "COMPLETED"])
        #expect(last.value == "20")
    }

    @Test func composedValueIsUpdatedBeforeObserversAreNotified() {
        let source = MutableProperty(0)
        let composed = source.map { $0 + 100 }
        var seen: [String] = []
        composed.producer.startWithValues { seen.append("\($0)=\(composed.value)") }
        source.value = 1
        #expect(seen == ["100=100", "101=101"])
    }

    @Test func initialThenProducerTakesSynchronousValuesAtOnceAndMapsInterruptionToCompletion() {
        let synchronous = Property(initial: 0, then: SignalProducer(values: 1, 2))
        #expect(synchronous.value == 2)
        var syncEvents: [String] = []
        synchronous.producer.start { syncEvents.append("\($0)") }
        #expect(syncEvents == ["VALUE 2", "COMPLETED"])

        let (signal, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: signal)
        var events: [String] = []
        property.producer.start { events.append("\($0)") }
        #expect(property.value == 0)
        input.send(value: 5)
        input.sendInterrupted()
        #expect(property.value == 5)
        #expect(events == ["VALUE 0", "VALUE 5", "COMPLETED"])
    }

    @Test func mapByClosureAndKeyPath() {
        struct Player { var name: String }
        let source = MutableProperty(Player(name: "Ada"))
        let names = source.map(\.name)
        let lengths = source.map { $0.name.count }
        var log: [String] = []
        names.producer.startWithValues { log.append("name \($0)") }
        lengths.signal.observeValues { log.append("length \($0)") }
        source.value = Player(name: "Grace")
        #expect(log == ["name Ada", "name Grace", "length 5"])
        #expect(lengths.value == 5)
    }

    @Test func combineLatestOfThreeEmitsOnEveryChangeAndCompletesWhenAllSourcesDied() {
        var a: MutableProperty<Int>? = MutableProperty(1)
        var b: MutableProperty<String>? = MutableProperty("x")
        var c: MutableProperty<Bool>? = MutableProperty(false)
        let combined = Property.combineLatest(a!, b!, c!)
        var events: [String] = []
        combined.producer.start { event in
            events.append(event.value.map { "\($0.0) \($0.1) \($0.2)" } ?? "\(event)")
        }
        a?.value = 2
        b?.value = "y"
        c?.value = true
        a = nil
        b = nil
        #expect(events == ["1 x false", "2 x false", "2 y false", "2 y true"])
        c?.value = false
        c = nil
        #expect(events == ["1 x false", "2 x false", "2 y false", "2 y true", "2 y false", "COMPLETED"])
        #expect(combined.value == (2, "y", false))
    }

    @Test func combineLatestWithAndSequenceForm() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let pair = a.combineLatest(with: b)
        let sum = Property.combineLatest([a, b])!.map { $0.reduce(0, +) }
        var log: [String] = []
        pair.signal.observeValues { log.append("pair \($0.0),\($0.1)") }
        sum.signal.observeValues { log.append("sum \($0)") }
        b.value = 20
        #expect(log == ["pair 1,20", "sum 21"])
        #expect(Property<Int>.combineLatest([MutableProperty<Int>]()) == nil)
    }

    @Test func skipRepeatsComparesWithTheImmediatelyPrecedingReceivedValue() {
        let source = MutableProperty(1)
        let distinct = source.skipRepeats()
        var values: [Int] = []
        distinct.producer.startWithValues { values.append($0) }
        for value in [1, 2, 2, 3, 3, 1] { source.value = value }
        #expect(values == [1, 2, 3, 1])

        // Neighbours within 1 are repeats; the comparison value advances even on skipped values.
        let drifting = MutableProperty(0)
        let coarse = drifting.skipRepeats { abs($0 - $1) <= 1 }
        var coarseValues: [Int] = []
        coarse.producer.startWithValues { coarseValues.append($0) }
        for value in [1, 2, 4, 5] { drifting.value = value }
        #expect(coarseValues == [0, 4])
        #expect(coarse.value == 4)
    }

    @Test func booleanCombinators() {
        let a = MutableProperty(true)
        let b = MutableProperty(false)
        let both = a.and(b)
        let either = a.or(b)
        let notA = a.negate()
        var log: [String] = []
        both.producer.startWithValues { log.append("and \($0)") }
        either.producer.startWithValues { log.append("or \($0)") }
        notA.producer.startWithValues { log.append("not \($0)") }
        b.value = true
        a.value = false
        #expect(
            log == [
                "and false", "or true", "not false",
                "and true", "or true",
                "and false", "or true", "not true",
            ]
        )
        #expect(Property.all([a, b]).value == false)
        #expect(Property.any([a, b]).value == true)
    }

    @Test func filterWithInitialAndCombinePrevious() {
        let source = MutableProperty(3)
        let even = source.filter(initial: 0) { $0.isMultiple(of: 2) }
        let pairs = source.combinePrevious(-1)
        var log: [String] = []
        even.producer.startWithValues { log.append("even \($0)") }
        pairs.producer.startWithValues { log.append("pair \($0.previous)->\($0.current)") }
        source.value = 4
        source.value = 5
        #expect(log == ["even 0", "pair -1->3", "even 4", "pair 3->4", "pair 4->5"])
        #expect(even.value == 4)
    }
}
