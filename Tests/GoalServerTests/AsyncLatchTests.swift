import GoalLocking
import GoalTestSlots
import GoalTestSupport
import Testing

/// `AsyncLatch`, the one primitive for awaiting something that happens once (the engine's drain, a bounded wait,
/// work on the engine queue): every waiter, parked before or arriving after, gets the first value, once.
@Suite("AsyncLatch: awaiting what happens once", .slotted)
struct AsyncLatchTests {
    @Test("a waiter that arrives after the latch opened gets its value at once")
    func waitAfterOpen() async {
        let latch = AsyncLatch<Int>()
        #expect(latch.value == nil)
        #expect(latch.open(7))
        #expect(latch.value == 7)
        #expect(await latch.wait() == 7)
    }

    @Test("every waiter parked before the latch opens is resumed with the one value")
    func parkedWaitersResume() async throws {
        let latch = AsyncLatch<String>()
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 { group.addTask { await latch.wait() } }
            try await pollUntil("five parked waiters") { latch.waiterCount == 5 }
            #expect(latch.open("done"))
            var results: [String] = []
            for try await result in group { results.append(result) }
            #expect(results == Array(repeating: "done", count: 5))
        }
        #expect(latch.waiterCount == 0)
    }

    @Test("only the first open counts: later ones change nothing and say so")
    func firstOpenWins() async {
        let latch = AsyncLatch<Int>()
        #expect(latch.open(1))
        #expect(!latch.open(2))
        #expect(await latch.wait() == 1)
    }

    @Test("opened from many threads at once, the latch takes exactly one value and every waiter gets it")
    func racingOpens() async {
        let latch = AsyncLatch<Int>()
        let opened = await withTaskGroup(of: Bool.self) { group in
            for value in 0..<32 { group.addTask { latch.open(value) } }
            for _ in 0..<32 {
                group.addTask {
                    _ = await latch.wait()
                    return false
                }
            }
            var opened = 0
            for await didOpen in group where didOpen { opened += 1 }
            return opened
        }
        #expect(opened == 1)
        let value = await latch.wait()
        #expect(latch.value == value)
    }
}
