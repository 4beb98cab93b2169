import Foundation

/// The machinery behind a ``Signal``: observer list, event grammar, serialized delivery and lifetime.
///
/// Retained by the public `Signal` object and by the signal's input observer; never by observers of the signal.
///
/// Locking (why this is `@unchecked Sendable`):
/// - `stateLock` (non-recursive) guards `status`, `observers` and `isPubliclyReferenced`. It is held only for
///   a few instructions and never while user code runs.
/// - `sendLock` (recursive) serializes delivery and guards `isDelivering` and `reentrantQueue`. It is held
///   while observers run. Recursion is what lets an observer callback send to the same signal: the nested
///   `send` re-acquires the lock, sees `isDelivering`, queues its event and returns; the outer send delivers
///   it after the current event reached every observer (FIFO). Sends from other threads block on the lock.
/// - A terminal event is recorded as `.terminating` under `stateLock` and then delivered by whoever can take
///   `sendLock`; a sender that cannot take it (another thread is delivering) leaves it to that thread, which
///   re-checks after unlocking, so the terminal event is never stranded and a terminal send never blocks.
///
/// An *unserialized* core (``Signal/unserializedPipe(disposable:)``) skips `sendLock` entirely: its senders
/// guarantee mutual exclusion themselves (``MutableProperty`` sends under its own recursive lock), and a
/// re-entrant send is delivered at once, nested (depth-first); a *queueing* unserialized core
/// (``Signal/reentrantUnserializedPipe(disposable:)``) instead delivers it after the current event, in send order.
/// `stateLock` still guards the observer list.
final class SignalCore<Value, Error: Swift.Error>: @unchecked Sendable {
    typealias Event = Signal<Value, Error>.Event
    typealias Observer = Signal<Value, Error>.Observer

    private enum Status {
        case alive
        /// A terminal event was accepted but not delivered yet.
        case terminating(Event)
        case terminated
    }

    private let stateLock = Lock()
    private var status = Status.alive
    private var observers = Bag<Observer>()
    private var isPubliclyReferenced = true

    private let sendLock = NSRecursiveLock()
    private var isDelivering = false
    private var reentrantQueue: [Event] = []

    private let lifetimeToken = Lifetime.Token()
    /// Ends after the terminal event has been delivered, or when the signal is disposed silently.
    let lifetime: Lifetime

    /// `false` for an unserialized core: no `sendLock`.
    private let isSerialized: Bool
    /// Unserialized cores only: whether a re-entrant send is queued until the current event has reached every
    /// observer (`reentrantUnserializedPipe`) instead of delivered at once, nested (`unserializedPipe`).
    private let queuesReentrantSends: Bool
    /// Unserialized cores only: set once the terminal event was accepted. Only touched by senders, which are
    /// mutually exclusive by the unserialized contract, so it needs no lock of its own; likewise the two below.
    private var senderSawTerminal = false
    /// Queueing unserialized cores: an event is being delivered on the sending thread.
    private var isDeliveringUnserialized = false
    /// Queueing unserialized cores: events sent re-entrantly, delivered in send order after the current one.
    private var unserializedQueue: [Event] = []

    init(serialized: Bool = true, queuesReentrantSends: Bool = false) {
        lifetime = Lifetime(lifetimeToken)
        isSerialized = serialized
        self.queuesReentrantSends = queuesReentrantSends
    }

    // MARK: Sending

    func send(_ event: Event) {
        if !isSerialized {
            sendUnserialized(event)
        } else if event.isTerminating {
            sendTerminal(event)
        } else {
            sendValue(event)
        }
    }

    private func sendValue(_ event: Event) {
        guard stateLock.withLock({ if case .alive = status { true } else { false } }) else { return }
        sendLock.lock()
        if isDelivering {
            // Re-entrant send from an observer on this thread: deliver after the current event.
            reentrantQueue.append(event)
            sendLock.unlock()
            return
        }
        isDelivering = true
        // Re-check: a terminal event may have been accepted while this thread waited for `sendLock`.
        if let snapshot = snapshotIfAlive(includingTerminating: false) {
            for observer in snapshot { observer.send(event) }
        }
        let didTerminate = drainLocked()
        isDelivering = false
        sendLock.unlock()
        if didTerminate {
            lifetimeToken.dispose()
        } else {
            deliverPendingTerminalIfPossible()
        }
    }

    /// Delivers `event` on the calling thread. A re-entrant send is delivered at once, nested (depth-first), or,
    /// for a queueing core, after the current event reached every observer, in send order. Requires the caller's
    /// mutual exclusion (see the type's documentation).
    private func sendUnserialized(_ event: Event) {
        guard !senderSawTerminal else { return }
        if event.isTerminating { senderSawTerminal = true }
        guard queuesReentrantSends else {
            deliverUnserialized(event, stopAtNestedTerminal: true)
            return
        }
        guard !isDeliveringUnserialized else {
            unserializedQueue.append(event)
            return
        }
        isDeliveringUnserialized = true
        deliverUnserialized(event, stopAtNestedTerminal: false)
        while !unserializedQueue.isEmpty {
            deliverUnserialized(unserializedQueue.removeFirst(), stopAtNestedTerminal: false)
        }
        isDeliveringUnserialized = false
    }

    /// Delivers one event to a snapshot of the observers; a terminal event ends the signal.
    /// - Parameter stopAtNestedTerminal: Whether a terminal event sent from inside an observer (nested delivery)
    ///   keeps the current value from the observers after it.
    private func deliverUnserialized(_ event: Event, stopAtNestedTerminal: Bool) {
        if event.isTerminating {
            let observersToNotify: [Observer]? = stateLock.withLock {
                guard case .alive = status else { return nil }
                status = .terminated
                return observers.removeAll()
            }
            guard var snapshot = observersToNotify else { return }
            for observer in snapshot { observer.send(event) }
            // Release observers (and whatever they capture) before the lifetime ends.
            snapshot.removeAll()
            lifetimeToken.dispose()
            return
        }
        guard let snapshot = snapshotIfAlive(includingTerminating: false) else { return }
        for observer in snapshot {
            // A nested terminal event ends delivery: nobody receives a value after it.
            if stopAtNestedTerminal, senderSawTerminal { return }
            observer.send(event)
        }
    }

    private func sendTerminal(_ event: Event) {
        let accepted: Bool = stateLock.withLock {
            guard case .alive = status else { return false }
            status = .terminating(event)
            return true
        }
        if accepted { deliverPendingTerminalIfPossible() }
    }

    /// Delivers a pending terminal event if no other delivery is in progress.
    private func deliverPendingTerminalIfPossible() {
        while isTerminating(), sendLock.try() {
            if isDelivering {
                // Nested on this thread: the outer delivery loop will deliver it after the queued events.
                sendLock.unlock()
                return
            }
            isDelivering = true
            let didTerminate = drainLocked()
            isDelivering = false
            sendLock.unlock()
            if didTerminate {
                lifetimeToken.dispose()
                return
            }
        }
    }

    /// Delivers re-entrantly queued values, then a pending terminal event. Requires `sendLock` and
    /// `isDelivering`.
    ///
    /// - Returns: Whether the terminal event was delivered; the caller then ends the lifetime after releasing
    ///   `sendLock`, so that cleanup never runs under the delivery lock.
    private func drainLocked() -> Bool {
        while true {
            if !reentrantQueue.isEmpty {
                let event = reentrantQueue.removeFirst()
                // Queued values were accepted before any terminal event sent later on this thread.
                if let snapshot = snapshotIfAlive(includingTerminating: true) {
                    for observer in snapshot { observer.send(event) }
                }
                continue
            }
            let terminal: (Event, [Observer])? = stateLock.withLock {
                guard case let .terminating(event) = status else { return nil }
                status = .terminated
                return (event, observers.removeAll())
            }
            guard let (event, observersToNotify) = terminal else { return false }
            var snapshot = observersToNotify
            for observer in snapshot { observer.send(event) }
            // Release observers (and whatever they capture) before the lifetime ends.
            snapshot.removeAll()
            reentrantQueue.removeAll()
            return true
        }
    }

    private func isTerminating() -> Bool {
        stateLock.withLock {
            if case .terminating = status { true } else { false }
        }
    }

    private func snapshotIfAlive(includingTerminating: Bool) -> [Observer]? {
        stateLock.withLock {
            switch status {
            case .alive: return observers.elements
            case .terminating: return includingTerminating ? observers.elements : nil
            case .terminated: return nil
            }
        }
    }

    // MARK: Observing

    func observe(_ observer: Observer) -> (any Disposable)? {
        let token: Bag<Observer>.Token? = stateLock.withLock {
            guard case .alive = status else { return nil }
            return observers.insert(observer)
        }
        guard let token else {
            observer.sendInterrupted()
            return nil
        }
        return AnyDisposable { [weak self] in
            self?.removeObserver(using: token)
        }
    }

    /// How many observers are attached now (read by tests through `Signal.observerCount`).
    var observerCount: Int {
        stateLock.withLock { observers.elements.count }
    }

    private func removeObserver(using token: Bag<Observer>.Token) {
        // The removed observer is released when this function returns, outside the lock: its deinit may run
        // arbitrary code.
        let removed: Observer? = stateLock.withLock { observers.remove(using: token) }
        _ = removed
        disposeSilentlyIfUnused()
    }

    // MARK: Silent disposal

    /// Called when the public `Signal` object deinitializes.
    func publicReferenceDidEnd() {
        stateLock.withLock { isPubliclyReferenced = false }
        disposeSilentlyIfUnused()
    }

    /// Ends the lifetime without any event if nobody can observe the signal any more: the public object is
    /// gone and there are no observers.
    private func disposeSilentlyIfUnused() {
        let shouldDispose: Bool = stateLock.withLock {
            guard case .alive = status, observers.isEmpty, !isPubliclyReferenced else { return false }
            status = .terminated
            return true
        }
        if shouldDispose { lifetimeToken.dispose() }
    }
}
