import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("CompositeDisposable", .slotted)
struct CompositeDisposableTests {
    @Test func disposesEveryMemberOnceInInsertionOrder() {
        var log: [String] = []
        let composite = CompositeDisposable()
        composite += AnyDisposable { log.append("a") }
        composite += { log.append("b") }
        composite.add { log.append("c") }
        #expect(composite.isDisposed == false)
        composite.dispose()
        composite.dispose()
        #expect(composite.isDisposed)
        #expect(log == ["a", "b", "c"])
    }

    @Test func initialMembersFromASequence() {
        let a = AnyDisposable()
        let b = AnyDisposable()
        let composite = CompositeDisposable([a, b] as [any Disposable])
        let withNils = CompositeDisposable([a, nil] as [(any Disposable)?])
        composite.dispose()
        #expect(a.isDisposed && b.isDisposed)
        withNils.dispose()
        #expect(withNils.isDisposed)
    }

    @Test func addingToADisposedCompositeDisposesAtOnceAndReturnsNil() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = AnyDisposable()
        let handle = composite += late
        #expect(handle == nil)
        #expect(late.isDisposed)
        var ran = false
        #expect(composite.add { ran = true } == nil)
        #expect(ran)
    }

    @Test func removalHandleRemovesWithoutDisposing() {
        let composite = CompositeDisposable()
        let member = AnyDisposable()
        let other = AnyDisposable()
        let handle = composite += member
        composite += other
        handle?.dispose()
        #expect(member.isDisposed == false)
        composite.dispose()
        #expect(member.isDisposed == false)
        #expect(other.isDisposed)
    }

    @Test func addingNilIsIgnored() {
        let composite = CompositeDisposable()
        let noDisposable: (any Disposable)? = nil
        #expect((composite += noDisposable) == nil)
        #expect(composite.add(nil) == nil, "add(nil) names the disposable overload, as in ReactiveSwift")
        #expect((composite += nil) == nil)
        #expect(composite.isDisposed == false)
    }

    @Test func scopedCompositeSupportsAddition() {
        var log: [String] = []
        do {
            let scoped = ScopedDisposable(CompositeDisposable())
            scoped += AnyDisposable { log.append("disposable") }
            scoped += { log.append("action") }
            #expect(log.isEmpty)
        }
        #expect(log == ["disposable", "action"])
    }
}
