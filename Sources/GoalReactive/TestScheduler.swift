public import Dispatch
public import Foundation

/// A date scheduler with a virtual clock, for deterministic tests of time-based code.
///
/// Nothing runs until the clock is moved with ``advance()``, ``advance(by:)-(DispatchTimeInterval)``,
/// ``advance(to:)`` or ``run()``. Due actions then run synchronously on the calling thread in date order; actions
/// with equal dates run in scheduling order. While an action runs, ``currentDate`` equals its scheduled date,
/// and actions it schedules for a date within the advance also run during that advance.
///
/// Threading: thread-safe (scheduling from other threads is fine), but advance the clock from one thread at
/// a time.
public final class TestScheduler: DateScheduler, @unchecked Sendable {
    // `@unchecked Sendable`: `now`, `scheduled` and `nextSequence` are only touched under `lock`; actions run
    // outside it.
    private struct ScheduledAction {
        let date: Date
        let sequence: UInt64
        let disposable: AnyDisposable
        let action: () -> Void

        func runsBefore(_ other: ScheduledAction) -> Bool {
            date < other.date || (date == other.date && sequence < other.sequence)
        }
    }

    private let lock = Lock()
    private var now: Date
    private var scheduled: [ScheduledAction] = []
    private var nextSequence: UInt64 = 0

    /// Creates a test scheduler.
    ///
    /// - Parameters:
    ///   - startDate: The initial virtual date (default: the reference date, 2001-01-01 00:00:00 UTC).
    public init(startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.now = startDate
    }

    /// The virtual date.
    public var currentDate: Date {
        lock.withLock { now }
    }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> (any Disposable)? {
        enqueue(at: nil, action)
    }

    @discardableResult
    public func schedule(after date: Date, action: @escaping () -> Void) -> (any Disposable)? {
        enqueue(at: date, action)
    }

    /// Runs `action` after `delay` of virtual time.
    ///
    /// - Parameters:
    ///   - delay: Offset from ``currentDate``.
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels `action` if it has not started.
    @discardableResult
    public func schedule(after delay: DispatchTimeInterval, action: @escaping () -> Void) -> (any Disposable)? {
        enqueue(at: currentDate.addingTimeInterval(delay.timeInterval), action)
    }

    @discardableResult
    public func schedule(
        after date: Date,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval,
        action: @escaping () -> Void
    ) -> (any Disposable)? {
        let repetition = SerialDisposable()
        scheduleRepeating(at: date, interval: interval.timeInterval, into: repetition, action)
        return repetition
    }

    private func scheduleRepeating(
        at date: Date,
        interval: TimeInterval,
        into repetition: SerialDisposable,
        _ action: @escaping () -> Void
    ) {
        repetition.inner = enqueue(at: date) { [unowned self] in
            action()
            scheduleRepeating(at: date.addingTimeInterval(interval), interval: interval, into: repetition, action)
        }
    }

    private func enqueue(at date: Date?, _ action: @escaping () -> Void) -> any Disposable {
        let disposable = AnyDisposable()
        lock.withLock {
            let entry = ScheduledAction(
                date: date ?? now,
                sequence: nextSequence,
                disposable: disposable,
                action: action
            )
            nextSequence &+= 1
            // Insert after every entry that runs before it (stable for equal dates).
            let index = scheduled.firstIndex { entry.runsBefore($0) } ?? scheduled.endIndex
            scheduled.insert(entry, at: index)
        }
        return disposable
    }

    /// Advances the clock by one nanosecond, running whatever is due (e.g. everything scheduled "now").
    public func advance() {
        advance(by: .nanoseconds(1))
    }

    /// Advances the clock by `interval`, running due actions along the way.
    ///
    /// - Parameters:
    ///   - interval: How far to move the clock.
    public func advance(by interval: DispatchTimeInterval) {
        advance(to: currentDate.addingTimeInterval(interval.timeInterval))
    }

    /// Advances the clock by `interval` seconds, running due actions along the way.
    ///
    /// - Parameters:
    ///   - interval: How far to move the clock, in seconds.
    public func advance(by interval: TimeInterval) {
        advance(to: currentDate.addingTimeInterval(interval))
    }

    /// Moves the clock to `date`, running every action due by then, in order.
    ///
    /// - Parameters:
    ///   - date: The new virtual date; must not be earlier than ``currentDate``.
    public func advance(to date: Date) {
        while true {
            let next: ScheduledAction? = lock.withLock {
                precondition(now <= date, "TestScheduler cannot advance backwards; use rewind(by:)")
                guard let first = scheduled.first, first.date <= date else {
                    now = date
                    return nil
                }
                scheduled.removeFirst()
                now = max(now, first.date)
                return first
            }
            guard let next else { return }
            if !next.disposable.isDisposed { next.action() }
        }
    }

    /// Runs every scheduled action, leaving the clock at `Date.distantFuture`.
    ///
    /// Never returns if a repeating action is still scheduled.
    public func run() {
        advance(to: .distantFuture)
    }

    /// Moves the clock back by `interval` without running anything.
    ///
    /// - Parameters:
    ///   - interval: How far to move the clock back; must not be negative.
    public func rewind(by interval: DispatchTimeInterval) {
        let seconds = interval.timeInterval
        precondition(seconds >= 0, "TestScheduler.rewind(by:) needs a non-negative interval")
        lock.withLock { now = now.addingTimeInterval(-seconds) }
    }
}
