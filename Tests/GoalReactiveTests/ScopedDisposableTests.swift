import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("ScopedDisposable", .slotted)
struct ScopedDisposableTests {
    @Test func disposesTheInnerOnDeinit() {
        let inner = AnyDisposable()
        do {
            let scoped = ScopedDisposable(inner)
            #expect(scoped.isDisposed == false)
        }
        #expect(inner.isDisposed)
    }

    @Test func isDisposedMirrorsTheInner() {
        let inner = AnyDisposable()
        let scoped = ScopedDisposable(inner)
        inner.dispose()
        #expect(scoped.isDisposed)
    }

    @Test func explicitDisposalDisposesTheInnerOnce() {
        var runs = 0
        do {
            let scoped = ScopedDisposable(AnyDisposable { runs += 1 })
            scoped.dispose()
            #expect(runs == 1)
        }
        #expect(runs == 1)
    }

    @Test func wrapsAnExistentialDisposable() {
        let inner: any Disposable = CompositeDisposable()
        do {
            _ = ScopedDisposable(inner) as ScopedDisposable<AnyDisposable>
        }
        #expect(inner.isDisposed)
    }
}
