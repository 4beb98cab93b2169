import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("Lifetime", .slotted)
struct LifetimeTests {
    @Test func endsWhenTheTokenDeinitializes() {
        var log: [String] = []
        var token: Lifetime.Token? = Lifetime.Token()
        let lifetime = Lifetime(token!)
        lifetime.observeEnded { log.append("first") }
        lifetime.observeEnded { log.append("second") }
        #expect(lifetime.hasEnded == false)
        token = nil
        #expect(lifetime.hasEnded)
        #expect(log == ["first", "second"])
    }

    @Test func lifetimeDoesNotRetainItsToken() {
        weak var weakToken: Lifetime.Token?
        let lifetime: Lifetime
        do {
            let (made, token) = Lifetime.make()
            lifetime = made
            weakToken = token
        }
        #expect(weakToken == nil)
        #expect(lifetime.hasEnded)
    }

    @Test func disposingTheTokenEndsTheLifetimeOnce() {
        var runs = 0
        let (lifetime, token) = Lifetime.make()
        lifetime.observeEnded { runs += 1 }
        token.dispose()
        token.dispose()
        #expect(lifetime.hasEnded)
        #expect(runs == 1)
    }

    @Test func observingAnEndedLifetimeRunsAtOnceAndReturnsNil() {
        var ran = false
        let handle = Lifetime.empty.observeEnded { ran = true }
        #expect(handle == nil)
        #expect(ran)
        #expect(Lifetime.empty.hasEnded)
    }

    @Test func observeEndedHandleDetachesTheAction() {
        var log: [String] = []
        let (lifetime, token) = Lifetime.make()
        let handle = lifetime.observeEnded { log.append("detached") }
        lifetime.observeEnded { log.append("kept") }
        handle?.dispose()
        token.dispose()
        #expect(log == ["kept"])
    }

    @Test func addedDisposablesAreDisposedAtTheEnd() {
        let (lifetime, token) = Lifetime.make()
        let disposable = AnyDisposable()
        lifetime += disposable
        #expect(disposable.isDisposed == false)
        token.dispose()
        #expect(disposable.isDisposed)
        let late = AnyDisposable()
        #expect((lifetime += late) == nil)
        #expect(late.isDisposed)
    }

    @Test func endedSignalCompletesWhenTheLifetimeEnds() {
        var log: [String] = []
        var token: Lifetime.Token? = Lifetime.Token()
        let lifetime = Lifetime(token!)
        lifetime.ended.observe { log.append("\($0)") }
        #expect(log.isEmpty)
        token = nil
        #expect(log == ["COMPLETED"])
    }

    @Test func endedSignalOfAnEndedLifetimeInterrupts() {
        var log: [String] = []
        Lifetime.empty.ended.observe { log.append("\($0)") }
        #expect(log == ["INTERRUPTED"])
    }
}
