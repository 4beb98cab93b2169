import GoalTestSlots
import NIOCore
import Testing

@testable import GoalServer

@Suite("fan-out pacing: a shard rests after a slice only while batches come faster than its rounds", .slotted)
struct SlicePacingTests {
    let pacing = SlicePacing(maxPause: .milliseconds(20))

    @Test(
        "nothing, or a single batch, arrived since the round began: the next slice follows at once, however long the slice took"
    )
    func noPauseWithoutABacklog() {
        #expect(pacing.pause(afterSliceCPU: .microseconds(300), waitingBatches: 0) == .zero)
        #expect(pacing.pause(afterSliceCPU: .milliseconds(50), waitingBatches: 0) == .zero)
        #expect(pacing.pause(afterSliceCPU: .microseconds(300), waitingBatches: 1) == .zero)
    }

    @Test("two or more batches wait: the rest is the slice's CPU time, capped at the longest pause")
    func pauseWhileBatchesWait() {
        #expect(pacing.pause(afterSliceCPU: .microseconds(300), waitingBatches: 2) == .microseconds(300))
        #expect(pacing.pause(afterSliceCPU: .milliseconds(50), waitingBatches: 3) == .milliseconds(20))
        #expect(pacing.pause(afterSliceCPU: .nanoseconds(-5), waitingBatches: 2) == .zero)
    }

    @Test("a longest pause of zero (limits.fanoutCoalesceMilliseconds = 0) never rests")
    func zeroMaxPause() {
        let unpaced = SlicePacing(maxPause: .zero)
        #expect(unpaced.pause(afterSliceCPU: .milliseconds(1), waitingBatches: 5) == .zero)
    }
}
