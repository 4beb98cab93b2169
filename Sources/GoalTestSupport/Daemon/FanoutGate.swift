public import GoalServer
import NIOConcurrencyHelpers
package import NIOCore

/// A test's hand on the fan-out pacing: with a gate, every shard holds the slice (or round) that follows a slice
/// until the test lets it through, instead of pausing for a time. A test can so commit "during the pause after a
/// slice" exactly, with no sleeps: the first slice on a resting shard goes out at once, each later one waits for
/// `release`. Production code has no gate (`DaemonParts.sliceGate`); `DaemonSeams.fanoutGate` installs one.
///
/// Threading: `Sendable`; lock-protected; held slices run on their shard's event loop. Lifetime: the test's; call
/// `open()` before stopping a daemon whose slices are held (a graceful stop visits every session anyway).
public final class FanoutGate: FanoutSliceGate {
    private struct State {
        var permits = 0
        var isOpen = false
        var held: [(any EventLoop, @Sendable () -> Void)] = []
        var waiters: [(Int, CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Lets the next `count` held (or later) slices through, oldest first.
    public func release(_ count: Int = 1) {
        let ready = state.withLockedValue { state in
            state.permits += count
            let passing = min(state.permits, state.held.count)
            state.permits -= passing
            let ready = state.held.prefix(passing)
            state.held.removeFirst(passing)
            return Array(ready)
        }
        for (loop, slice) in ready { loop.execute(slice) }
    }

    /// Lets every held and later slice through: the shards pace as in production from now on.
    public func open() {
        let ready = state.withLockedValue { state in
            state.isOpen = true
            defer { state.held.removeAll() }
            return state.held
        }
        for (loop, slice) in ready { loop.execute(slice) }
    }

    /// Returns once at least `count` slices are held.
    public func waitUntilHeld(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLockedValue { state in
                if state.held.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Runs `slice` on `loop` now if a permit is left or the gate is open, else once one is released.
    package func pass(on loop: any EventLoop, _ slice: @escaping @Sendable () -> Void) {
        let (runNow, woken) = state.withLockedValue { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            if state.isOpen { return (true, []) }
            if state.permits > 0 {
                state.permits -= 1
                return (true, [])
            }
            state.held.append((loop, slice))
            let held = state.held.count
            let woken = state.waiters.filter { $0.0 <= held }.map(\.1)
            state.waiters.removeAll { $0.0 <= held }
            return (false, woken)
        }
        for continuation in woken { continuation.resume() }
        if runNow { loop.execute(slice) }
    }
}
