/// Something that happens once, awaited by any number of tasks: `wait()` suspends until `open(_:)` is called and
/// returns its value (at once when the latch is open already); every waiter gets the same value, and only the first
/// `open` counts. The package's one primitive for handing "it happened" from a queue or a thread to async code
/// (the engine's drain, a wait bounded by a timeout, a result computed on the engine queue), instead of continuation
/// lists kept by hand.
///
/// Threading: any thread; `open` resumes the waiters after releasing the lock. Cancellation: a waiting task is not woken by cancellation; whoever owns the latch must open it on
/// every path (a waiter left on a latch that is dropped unopened never resumes). Lifetime: as long as its owner.
public final class AsyncLatch<Value: Sendable>: Sendable {
    private enum State {
        case closed(waiters: [CheckedContinuation<Value, Never>])
        case open(Value)
    }

    private let state = LockedValue(State.closed(waiters: []))

    public init() {}

    /// Opens the latch with `value` and resumes every waiter with it. Any thread.
    /// - Returns: False (and nothing changes) when the latch was open already.
    @discardableResult
    public func open(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard case .closed(let waiters) = state else { return nil }
            state = .open(value)
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value once the latch is open; until then, waits for it.
    public func wait() async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let value: Value? = state.withLock { state in
                switch state {
                case .open(let value):
                    return value
                case .closed(var waiters):
                    state = .closed(waiters: [])  // leaves `waiters` the array's only owner: appending copies nothing
                    waiters.append(continuation)
                    state = .closed(waiters: waiters)
                    return nil
                }
            }
            if let value { continuation.resume(returning: value) }
        }
    }

    /// The value when the latch is open, else nil. Any thread; never waits.
    public var value: Value? {
        state.withLock { state in
            if case .open(let value) = state { return value }
            return nil
        }
    }

    /// How many tasks wait (for tests that must know a waiter is parked before they open the latch).
    public var waiterCount: Int {
        state.withLock { state in
            if case .closed(let waiters) = state { return waiters.count }
            return 0
        }
    }
}

extension AsyncLatch where Value == Void {
    /// Opens the latch and resumes every waiter. Any thread.
    /// - Returns: False when the latch was open already.
    @discardableResult
    public func open() -> Bool { open(()) }
}
