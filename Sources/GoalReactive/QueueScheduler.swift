public import Dispatch
public import Foundation

/// A date scheduler backed by a serial `DispatchQueue`. Always asynchronous: actions never run inside
/// `schedule`.
///
/// Threading: thread-safe; actions run one at a time on `queue`. Repeating actions use a
/// `DispatchSourceTimer` on `queue`.
public final class QueueScheduler: DateScheduler {
    /// The serial queue actions run on.
    public let queue: DispatchQueue

    /// A scheduler on the main queue (asynchronous, unlike ``MainScheduler``).
    public static let main = QueueScheduler(queue: .main)

    /// The current wall-clock date.
    public var currentDate: Date { Date() }

    /// Creates a scheduler with its own serial queue.
    ///
    /// - Parameters:
    ///   - qos: Quality of service of the queue.
    ///   - name: The queue's label.
    ///   - targeting: An optional target queue.
    public convenience init(
        qos: DispatchQoS = .default,
        name: String = "GoalReactive.QueueScheduler",
        targeting: DispatchQueue? = nil
    ) {
        self.init(queue: DispatchQueue(label: name, qos: qos, target: targeting))
    }

    private init(queue: DispatchQueue) {
        self.queue = queue
    }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> (any Disposable)? {
        let disposable = AnyDisposable()
        // Safe: the action is handed over to exactly one block on the serial queue.
        let work = UncheckedSendable(action)
        queue.async {
            if !disposable.isDisposed { work.value() }
        }
        return disposable
    }

    @discardableResult
    public func schedule(after date: Date, action: @escaping () -> Void) -> (any Disposable)? {
        let disposable = AnyDisposable()
        let work = UncheckedSendable(action)
        queue.asyncAfter(wallDeadline: Self.wallTime(for: date)) {
            if !disposable.isDisposed { work.value() }
        }
        return disposable
    }

    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping () -> Void
    ) -> (any Disposable)? {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(wallDeadline: Self.wallTime(for: date), repeating: interval, leeway: leeway)
        // Safe: the timer's handler only ever runs on the serial `queue`.
        let work = UncheckedSendable(action)
        timer.setEventHandler { work.value() }
        timer.resume()
        return AnyDisposable { timer.cancel() }
    }

    private static func wallTime(for date: Date) -> DispatchWallTime {
        .now() + max(0, date.timeIntervalSinceNow)
    }
}
