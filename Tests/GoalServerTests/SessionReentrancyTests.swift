import GoalTestSlots
import GoalWire
import Testing

@testable import GoalServer

/// `SessionReentrancy` driven directly: what arrives inside a write section waits for the outermost one to end, in a
/// fixed order, and the first close wins.
@Suite("a session's re-entrancy guard: what arrives inside a write waits for its end", .slotted)
struct SessionReentrancyTests {
    @Test("outside a section everything is performed now")
    func outsideASection() {
        var guardian = SessionReentrancy()
        let closesNow = guardian.close(.drop)
        #expect(closesNow)
        let tearsDownNow = guardian.tearDown()
        #expect(tearsDownNow)
        let actsOnWritabilityNow = guardian.becameWritable()
        #expect(actsOnWritabilityNow)
        #expect(!guardian.closeIsPending)
    }

    @Test("inside nested sections: deferred until the outermost ends, close first, then teardown, then writability")
    func nestedSectionsDeferInOrder() {
        var guardian = SessionReentrancy()
        guardian.enter()
        guardian.enter()
        let writableNow = guardian.becameWritable()
        #expect(!writableNow)
        let firstCloseNow = guardian.close(.error(.slowConsumer, "first"))
        #expect(!firstCloseNow)
        let secondCloseNow = guardian.close(.drop)
        #expect(!secondCloseNow, "a second close waits too, and loses to the first")
        let tearDownNow = guardian.tearDown()
        #expect(!tearDownNow)
        #expect(guardian.closeIsPending)
        let innerEnd = guardian.leave()
        #expect(innerEnd.isEmpty, "the inner section's end performs nothing")
        #expect(guardian.isInSection)
        let outerEnd = guardian.leave()
        #expect(outerEnd == [.close(.error(.slowConsumer, "first")), .tearDown, .writable])
        #expect(!guardian.isInSection)
        #expect(!guardian.closeIsPending)
        let closesNowAfter = guardian.close(.drop)
        #expect(closesNowAfter, "after the section a close is performed now again")
    }

    @Test("a section with nothing deferred ends with nothing to do")
    func nothingDeferred() {
        var guardian = SessionReentrancy()
        guardian.enter()
        let due = guardian.leave()
        #expect(due.isEmpty)
    }
}
