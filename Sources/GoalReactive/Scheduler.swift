public import Dispatch
public import Foundation

/// A serial queue of work.
///
/// Actions scheduled on one scheduler run one at a time, in scheduling order (for date schedulers: in date
/// order, ties in scheduling order). The returned disposable cancels an action that has not started yet.
///
/// Threading: schedulers are shared between threads and must be thread-safe. Actions are not `@Sendable`
/// (as in ReactiveSwift): the scheduler hands them to its own execution context, and the author of an action
/// decides whether what it captures may be used there.
public protocol Scheduler: AnyObject, Sendable {
    /// Enqueues `action`.
    ///
    /// - Parameters:
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels `action` if it has not started, or `nil` if it cannot be cancelled
    ///   (e.g. it already ran).
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> (any Disposable)?
}

/// A scheduler that can also run actions at a given date, once or repeatedly.
public protocol DateScheduler: Scheduler {
    /// The scheduler's notion of "now" (virtual for ``TestScheduler``).
    var currentDate: Date { get }

    /// Runs `action` at or after `date`.
    ///
    /// - Parameters:
    ///   - date: The earliest time to run.
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels `action` if it has not started.
    @discardableResult
    func schedule(after date: Date, action: @escaping () -> Void) -> (any Disposable)?

    /// Runs `action` at `date` and then every `interval`, until the returned disposable is disposed.
    ///
    /// - Parameters:
    ///   - date: The first run.
    ///   - interval: The period.
    ///   - leeway: How late a run may be, to let the system coalesce timers.
    ///   - action: The work to run.
    /// - Returns: A disposable that stops the repetition.
    @discardableResult
    func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping () -> Void
    ) -> (any Disposable)?
}

extension DateScheduler {
    /// Runs `action` at `date` and then every `interval`, with a leeway of 10% of `interval`.
    ///
    /// - Parameters:
    ///   - date: The first run.
    ///   - interval: The period.
    ///   - action: The work to run.
    /// - Returns: A disposable that stops the repetition.
    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        action: @escaping () -> Void
    ) -> (any Disposable)? {
        schedule(after: date, interval: interval, leeway: interval.scaled(by: 0.1), action: action)
    }
}

/// Runs every action synchronously, on the calling thread, as soon as it is scheduled.
///
/// Threading: thread-safe (stateless). `schedule` returns `nil`: there is nothing left to cancel.
public final class ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> (any Disposable)? {
        action()
        return nil
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.infinity` for `.never`).
    var timeInterval: TimeInterval {
        switch self {
        case let .seconds(value): return TimeInterval(value)
        case let .milliseconds(value): return TimeInterval(value) / 1_000
        case let .microseconds(value): return TimeInterval(value) / 1_000_000
        case let .nanoseconds(value): return TimeInterval(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// The interval multiplied by `factor`, at nanosecond resolution.
    func scaled(by factor: Double) -> DispatchTimeInterval {
        let seconds = timeInterval * factor
        guard seconds.isFinite else { return .never }
        return .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
    }
}
