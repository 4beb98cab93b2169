import Foundation
public import GoalModel
public import GoalStore

/// Wraps a `LeagueStorage` and holds chosen calls at a gate until the test opens it, so a test can stop the
/// daemon at an exact point (a batch write in flight, a hello between its token look-up and its registration)
/// and act while it is held: no sleeps, no timing. Every call is forwarded unchanged once its gate is open.
///
/// Threading: `Sendable`. Held calls block their own thread (the daemon's writer queue or thread pool) on
/// `condition`; the test side waits asynchronously (`waitUntilHeld`). Lifetime: holds the wrapped store strongly;
/// `close()` closes it. Open every gate before stopping the daemon, or its held threads never return.
/// `@unchecked Sendable`: `state` is only touched with `condition` locked (one lock: held threads wait on it).
public final class GatedStorage: ForwardingLeagueStorage, @unchecked Sendable {
    /// The calls that can be held.
    public enum Call: Hashable, Sendable {
        case append
        case logBounds
        case backlog
        case history
    }

    private struct State {
        var closed: Set<Call> = []
        var held: [Call: Int] = [:]
        var waiters: [(Call, Int, CheckedContinuation<Void, Never>)] = []
    }

    /// The wrapped store.
    public let base: any LeagueStorage
    private let condition = NSCondition()
    private var state = State()

    public init(wrapping base: any LeagueStorage) {
        self.base = base
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// Closes `call`'s gate: calls made from now on wait until `open` (calls already past it are not affected).
    public func close(_ call: Call) {
        locked { _ = $0.closed.insert(call) }
    }

    /// Opens `call`'s gate and lets every held call through.
    public func open(_ call: Call) {
        locked { _ = $0.closed.remove(call) }
        condition.broadcast()
    }

    /// Returns once at least `count` calls of `call` are held at its gate.
    public func waitUntilHeld(_ call: Call, count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = locked { state in
                if state.held[call, default: 0] >= count { return true }
                state.waiters.append((call, count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func pass(_ call: Call) {
        condition.lock()
        guard state.closed.contains(call) else {
            condition.unlock()
            return
        }
        state.held[call, default: 0] += 1
        let held = state.held[call]!
        let ready = state.waiters.filter { $0.0 == call && $0.1 <= held }.map(\.2)
        state.waiters.removeAll { $0.0 == call && $0.1 <= held }
        condition.unlock()
        for continuation in ready { continuation.resume() }
        condition.lock()
        while state.closed.contains(call) { condition.wait() }
        state.held[call, default: 1] -= 1
        condition.unlock()
    }

    public func append(_ batch: StorageBatch) throws(StorageError) {
        pass(.append)
        try base.append(batch)
    }

    public func logBounds() throws(StorageError) -> LogBounds {
        pass(.logBounds)
        return try base.logBounds()
    }

    public func backlog(after: Revision, upTo: Revision, limit: Int) throws(StorageError) -> [LogFrame] {
        pass(.backlog)
        return try base.backlog(after: after, upTo: upTo, limit: limit)
    }

    public func history(of entity: EntityRef, before: Revision?, limit: Int) throws(StorageError) -> HistoryPage {
        pass(.history)
        return try base.history(of: entity, before: before, limit: limit)
    }
}
