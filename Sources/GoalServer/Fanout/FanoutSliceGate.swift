package import NIOCore

/// Lets the fan-out's slices through one by one instead of pacing them by a pause: with a gate, every shard hands
/// the slice (or round) that follows a slice to `pass` and runs nothing until the gate runs it. Production has
/// none (`DaemonParts.sliceGate`); a test's gate (GoalTestSupport's `FanoutGate`) commits "during the pause after a
/// slice" exactly, with no sleeps.
///
/// Threading: `Sendable`; `pass` is called on the shard's event loop and must run `slice` on `loop`.
package protocol FanoutSliceGate: Sendable {
    /// Runs `slice` on `loop`, now or once the gate lets it through.
    func pass(on loop: any EventLoop, _ slice: @escaping @Sendable () -> Void)
}
