import GoalTestSlots
import NIOCore
import Testing

@testable import GoalServer

/// Issue 14 point 10: the log at the connection cap is rate-limited (no clock: the test passes the times).
@Suite("refused connections are logged at most once per interval, each line counting what it stands for", .slotted)
struct RefusalLogTests {
    @Test("the first refusal at once; then one line per interval with the count since the last")
    func rateLimited() {
        let log = RefusalLog(interval: .seconds(10))
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        #expect(log.refused(now: start) == 1)
        for second in 1...9 {
            #expect(log.refused(now: start + .seconds(Int64(second))) == nil, "second \(second)")
        }
        #expect(log.refused(now: start + .seconds(10)) == 10, "nine suppressed and this one")
        #expect(log.refused(now: start + .seconds(11)) == nil)
        #expect(log.refused(now: start + .seconds(60)) == 2)
    }

    @Test("a thousand refusals in one burst make one line")
    func burst() {
        let log = RefusalLog(interval: .seconds(10))
        let now = NIODeadline.uptimeNanoseconds(5_000_000_000)
        let lines = (0..<1_000).compactMap { _ in log.refused(now: now) }
        #expect(lines == [1])
    }
}
