import Dispatch
import Synchronization

/// A scheduler for the main queue, the terminal-app equivalent of ReactiveSwift's `UIScheduler`.
///
/// If `schedule` is called on the main queue while no action is pending on any `MainScheduler`, the action
/// runs **synchronously**; otherwise it is enqueued with `DispatchQueue.main.async`. Either way actions run
/// in scheduling order.
///
/// Threading: thread-safe; actions always run on the main queue. On Linux the main queue only drains while
/// the main thread runs `dispatchMain()`, a run loop, or Swift concurrency's main executor (e.g. an `async`
/// `main`, `@MainActor` code in tests).
public final class MainScheduler: Scheduler {
    /// Actions scheduled on any `MainScheduler` that have not finished yet (shared so that ordering holds
    /// across instances).
    private static let pending = Synchronization.Atomic<Int>(0)

    private static let queueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller is running on the main queue.
    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) == 1
    }

    /// Creates a main-queue scheduler.
    public init() {
        _ = Self.queueKey
    }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> (any Disposable)? {
        let position = Self.pending.add(1, ordering: .sequentiallyConsistent).newValue
        if position == 1, Self.isOnMainQueue {
            defer { Self.pending.subtract(1, ordering: .sequentiallyConsistent) }
            action()
            return nil
        }
        let disposable = AnyDisposable()
        // Safe: the action is handed over to exactly one main-queue block and runs there once.
        let work = UncheckedSendable(action)
        DispatchQueue.main.async {
            defer { Self.pending.subtract(1, ordering: .sequentiallyConsistent) }
            if !disposable.isDisposed { work.value() }
        }
        return disposable
    }
}
