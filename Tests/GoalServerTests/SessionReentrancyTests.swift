import GoalTestSlots
import GoalWire
import Testing

@testable import GoalServer

/// `SessionReentrancy` driven directly: what NIO raises inside a section waits for the outermost one to end, in a
/// fixed order (the close itself is the machine's: SessionMachineTests "the first close wins").
@Suite("a session's re-entrancy guard: what arrives inside a write waits for its end", .slotted)
struct SessionReentrancyTests {
    @Test("outside a section everything is performed now")
    func outsideASection() {
        var guardian = SessionReentrancy()
        let tearsDownNow = guardian.tearDown()
        #expect(tearsDownNow)
        let actsOnWritabilityNow = guardian.becameWritable()
        #expect(actsOnWritabilityNow)
        #expect(!guardian.isInSection)
    }

    @Test("inside nested sections: deferred until the outermost ends, teardown before writability")
    func nestedSectionsDeferInOrder() {
        var guardian = SessionReentrancy()
        guardian.enter()
        guardian.enter()
        let writableNow = guardian.becameWritable()
        #expect(!writableNow)
        let tearDownNow = guardian.tearDown()
        #expect(!tearDownNow)
        let innerEnd = guardian.leave()
        #expect(innerEnd.isEmpty, "the inner section's end performs nothing")
        #expect(guardian.isInSection)
        let outerEnd = guardian.leave()
        #expect(outerEnd == [.tearDown, .writable])
        #expect(!guardian.isInSection)
        let tearsDownNowAfter = guardian.tearDown()
        #expect(tearsDownNowAfter, "after the section a teardown is performed now again")
    }

    @Test("a section with nothing deferred ends with nothing to do")
    func nothingDeferred() {
        var guardian = SessionReentrancy()
        guardian.enter()
        let due = guardian.leave()
        #expect(due.isEmpty)
    }
}
