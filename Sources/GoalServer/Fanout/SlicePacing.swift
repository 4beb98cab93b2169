import NIOCore

/// How long a shard rests after writing a slice of a fan-out round, before its next slice or round.
///
/// The rest is what makes writes carry several changesets: while the shard rests, batches that become durable
/// join its live window, and the sessions it visits next get them all in one write. That only pays when batches
/// come faster than rounds end. A daemon whose changesets come far apart (20 a second, each round done long before
/// the next changeset) would only make its slowest subscribers wait, and one batch that arrived mid-round is
/// carried by the next round anyway. So the shard rests only while at least `restingBacklog` batches arrived since
/// its round began: then as long as the slice's CPU time on its thread (at most `maxPause`), so fan-out takes
/// about half the loop at most, and the busier the daemon the more each write carries. (With 4 changesets in
/// flight at 1,000 subscribers, resting for a single waiting batch gave 188–238k deliveries/s, resting from two on
/// 258–301k, never resting 256–277k: docs/BENCHMARKS.md.)
///
/// Pure and `Sendable`; `LoopShard` asks it after every slice.
struct SlicePacing: Sendable {
    /// The longest rest (`limits.fanoutCoalesceMilliseconds`); zero writes slices back to back.
    let maxPause: TimeAmount

    /// Batches that must have arrived since the round began before the shard rests between slices.
    static let restingBacklog = 2

    /// The rest after a slice that took `cpu` of the thread's time, while `waitingBatches` batches arrived since
    /// the round began.
    func pause(afterSliceCPU cpu: TimeAmount, waitingBatches: Int) -> TimeAmount {
        guard waitingBatches >= Self.restingBacklog else { return .zero }
        return max(.zero, min(cpu, maxPause))
    }
}
