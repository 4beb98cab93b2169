import NIOCore

/// How long a shard rests after writing a slice of a fan-out round, before its next slice or round.
///
/// The rest is what makes writes carry several changesets: while the shard rests, batches that become durable
/// join its live window, and the sessions it visits next get them all in one write. That only pays when batches
/// do arrive. A daemon whose changesets come far apart (20 a second, each round done long before the next
/// changeset) would only make its slowest subscribers wait, so the shard rests only while a batch it has not
/// begun a round for is waiting: then it rests as long as the slice's CPU time on its thread (at most
/// `maxPause`), so fan-out takes about half the loop at most, and the busier the daemon the more each write
/// carries.
///
/// Pure and `Sendable`; `LoopShard` asks it after every slice.
struct SlicePacing: Sendable {
    /// The longest rest (`limits.fanoutCoalesceMilliseconds`); zero writes slices back to back.
    let maxPause: TimeAmount

    /// The rest after a slice that took `cpu` of the thread's time, while `waitingBatches` batches arrived since
    /// the round began.
    func pause(afterSliceCPU cpu: TimeAmount, waitingBatches: Int) -> TimeAmount {
        guard waitingBatches > 0 else { return .zero }
        return max(.zero, min(cpu, maxPause))
    }
}
