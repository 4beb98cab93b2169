import Foundation

extension Scheduler {
    /// Schedules `action`, letting `lifetime` cancel it until it has run.
    ///
    /// Unlike `lifetime += schedule(action)`, the cancellation handle is detached from `lifetime` once the
    /// action ran, so a long-lived stream does not accumulate one handle per event.
    func schedule(during lifetime: Lifetime, _ action: @escaping () -> Void) {
        let slot = ScheduledSlot()
        slot.attach(
            schedule {
                action()
                slot.finish()
            },
            to: lifetime
        )
    }
}

extension DateScheduler {
    /// Schedules `action` at `date`, letting `lifetime` cancel it until it has run; see
    /// ``Scheduler/schedule(during:_:)``.
    func schedule(after date: Date, during lifetime: Lifetime, _ action: @escaping () -> Void) {
        let slot = ScheduledSlot()
        slot.attach(
            schedule(after: date) {
                action()
                slot.finish()
            },
            to: lifetime
        )
    }
}

/// The link between one scheduled action and the lifetime that may cancel it.
private final class ScheduledSlot: @unchecked Sendable {
    // `@unchecked Sendable`: `removalHandle` and `hasRun` are only touched under `lock`.
    private let lock = Lock()
    private var removalHandle: (any Disposable)?
    private var hasRun = false

    func attach(_ cancellation: (any Disposable)?, to lifetime: Lifetime) {
        guard let cancellation else { return }
        let handle = lifetime += cancellation
        let alreadyRun: Bool = lock.withLock {
            if !hasRun { removalHandle = handle }
            return hasRun
        }
        if alreadyRun { handle?.dispose() }
    }

    func finish() {
        let handle: (any Disposable)? = lock.withLock {
            hasRun = true
            defer { removalHandle = nil }
            return removalHandle
        }
        // Detaches the (now spent) cancellation from the lifetime without disposing anything else.
        handle?.dispose()
    }
}
