import Dispatch
import NIOConcurrencyHelpers

/// A thread-safe queue that callbacks push into and async tests read from, with a timeout that only guards against
/// hangs (tests never assert on timing: a timeout is a failure, never an expected outcome).
///
/// Threading: `push` and `finish` from any thread (event loops, callbacks); `next` from async code. Waiters are served
/// in the order they started waiting. Lifetime: after `finish`, buffered elements are still delivered, then `next`
/// throws `TestInboxError.finished`.
public final class TestInbox<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Element, any Error>
    }

    private struct State {
        var buffer: [Element] = []
        var waiters: [Waiter] = []
        var finished = false
        var nextID: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Adds an element, handing it straight to the oldest waiter if there is one.
    ///
    /// - Parameter element: The element.
    public func push(_ element: Element) {
        let waiter: Waiter? = state.withLockedValue { state in
            if state.waiters.isEmpty {
                state.buffer.append(element)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.continuation.resume(returning: element)
    }

    /// Marks the end: waiters and later reads, once the buffer is empty, get `TestInboxError.finished`.
    public func finish() {
        let waiters = state.withLockedValue { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: TestInboxError.finished) }
    }

    /// The elements pushed and not yet read, without waiting.
    public var buffered: [Element] {
        state.withLockedValue { $0.buffer }
    }

    /// Waits for the next element.
    ///
    /// - Parameter timeout: How long to wait before giving up (a guard against hangs).
    /// - Returns: The oldest unread element.
    /// - Throws: `TestInboxError.timedOut` or `.finished`.
    public func next(timeout: Duration = .seconds(30)) async throws -> Element {
        try await withCheckedThrowingContinuation { continuation in
            let id: UInt64? = state.withLockedValue { state in
                if !state.buffer.isEmpty {
                    continuation.resume(returning: state.buffer.removeFirst())
                    return nil
                }
                if state.finished {
                    continuation.resume(throwing: TestInboxError.finished)
                    return nil
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, continuation: continuation))
                return state.nextID
            }
            guard let id else { return }
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                expire(id, after: timeout)
            }
        }
    }

    /// Reads elements until one satisfies `predicate`.
    ///
    /// - Parameters:
    ///   - timeout: The limit for each wait.
    ///   - predicate: True for the element that ends the collection.
    /// - Returns: Every element read, the matching one last.
    /// - Throws: `TestInboxError` when the inbox times out or finishes first.
    public func collect(
        timeout: Duration = .seconds(30),
        until predicate: (Element) -> Bool
    ) async throws -> [Element] {
        var collected: [Element] = []
        while true {
            let element = try await next(timeout: timeout)
            collected.append(element)
            if predicate(element) { return collected }
        }
    }

    private func expire(_ id: UInt64, after timeout: Duration) {
        let waiter: Waiter? = state.withLockedValue { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: TestInboxError.timedOut(timeout))
    }
}

/// Why `TestInbox.next` returned no element.
public enum TestInboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing arrived within the timeout: the behaviour under test hung or never happened.
    case timedOut(Duration)
    /// The source ended and everything buffered was read.
    case finished

    public var description: String {
        switch self {
        case .timedOut(let duration): "nothing arrived within \(duration)"
        case .finished: "the source ended"
        }
    }
}
