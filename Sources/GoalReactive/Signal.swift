/// A hot stream of events: work starts when the signal is created, and every observer sees the same events
/// in the same order. Observing has no side effects.
///
/// Event grammar: `value* (failed | completed | interrupted)?` — exactly one terminal event at most, and
/// nothing after it. See `Docs.docc/Contracts.md` for the full contract.
///
/// Threading:
/// - Events are delivered **serially** and **synchronously on the sending thread**: sends from many threads
///   never overlap; each `send` returns after its event reached every observer (except for the re-entrant and
///   terminal cases below).
/// - A value sent to the same signal from inside one of its observers (same thread) is **queued** and
///   delivered after the current event has reached all observers (FIFO). ReactiveSwift deadlocks or asserts
///   in that case; this library defines it instead.
/// - A terminal event never blocks: if another thread is delivering, that thread delivers it afterwards.
/// - Observers are called in subscription order on a snapshot of the observer list: an observer added during
///   a delivery misses that event; one removed during a delivery still receives it.
///
/// Lifetime:
/// - The signal stays alive while the `Signal` object is referenced **or** it has at least one observer.
///   The input observer does not keep the `Signal` object alive.
/// - When it is neither referenced nor observed, it is disposed **silently**: no event is sent, its
///   ``Lifetime`` ends and the generator's resources are disposed.
/// - The input observer sends `.interrupted` when it is deinitialized.
/// - On termination: the terminal event reaches every observer, then all observers are released, then the
///   lifetime ends.
/// - Observing an already-terminated signal sends exactly one `.interrupted` to the new observer (even if the
///   signal completed) and returns `nil`.
public final class Signal<Value, Error: Swift.Error>: Sendable {
    let core: SignalCore<Value, Error>

    /// Creates a signal and runs `generator` immediately, synchronously.
    ///
    /// Events sent from inside `generator` reach nobody (nobody can observe the signal yet). Keep the input
    /// observer as long as you want to send; releasing it interrupts the signal. Tie resources to `lifetime`.
    ///
    /// - Parameters:
    ///   - generator: Receives the signal's thread-safe input observer and the signal's lifetime.
    public init(_ generator: (_ input: Observer, _ lifetime: Lifetime) -> Void) {
        core = SignalCore()
        generator(Observer(inputOf: core), core.lifetime)
    }

    deinit {
        core.publicReferenceDidEnd()
    }

    /// Creates a signal together with its input observer.
    ///
    /// - Parameters:
    ///   - disposable: Disposed when the signal terminates or is disposed silently.
    /// - Returns: The signal and its thread-safe input observer.
    public static func pipe(disposable: (any Disposable)? = nil) -> (output: Signal, input: Observer) {
        var input: Observer?
        let signal = Signal { observer, lifetime in
            input = observer
            lifetime += disposable
        }
        return (signal, input!)
    }

    /// Creates a signal with an **unserialized** input observer, together with that observer.
    ///
    /// Unlike ``pipe(disposable:)``, the input takes no delivery lock: **the caller must guarantee that sends
    /// never overlap** (for example by sending under a lock of its own). In exchange, a value sent from inside
    /// an observer of this signal is delivered **at once, nested** (depth-first): observers later in the list
    /// receive the newer value before the one whose delivery was interrupted — ReactiveSwift's
    /// `unserializedPipe()` semantics, which ``MutableProperty`` relies on. A terminal event sent from inside
    /// an observer is delivered at once too, and the interrupted value reaches no further observer.
    ///
    /// Observing and disposing observations stay thread-safe. The input observer sends `.interrupted` on
    /// deinit, like every input observer; release it under the same mutual exclusion.
    ///
    /// - Parameters:
    ///   - disposable: Disposed when the signal terminates or is disposed silently.
    /// - Returns: The signal and its unserialized input observer.
    public static func unserializedPipe(
        disposable: (any Disposable)? = nil
    ) -> (output: Signal, input: Observer) {
        let signal = Signal(core: SignalCore(serialized: false))
        signal.core.lifetime += disposable
        return (signal, Observer(inputOf: signal.core))
    }

    /// ReactiveSwift's pipe for senders that guarantee mutual exclusion themselves and may send from inside an
    /// observer: a value (or terminal event) sent re-entrantly is **queued** and delivered after the current event
    /// has reached every observer, in send order, by the outer send before it returns — so every observer sees
    /// the values in the order they were sent (ReactiveSwift's documented behaviour). Unlike ``pipe(disposable:)``
    /// the input takes no delivery lock: **sends must never overlap**. Events sent after a terminal event are
    /// dropped.
    ///
    /// - Parameters:
    ///   - disposable: Disposed when the signal terminates or is disposed silently.
    /// - Returns: The signal and its unserialized input observer.
    public static func reentrantUnserializedPipe(
        disposable: (any Disposable)? = nil
    ) -> (output: Signal, input: Observer) {
        let signal = Signal(core: SignalCore(serialized: false, queuesReentrantSends: true))
        signal.core.lifetime += disposable
        return (signal, Observer(inputOf: signal.core))
    }

    private init(core: SignalCore<Value, Error>) {
        self.core = core
    }

    /// A signal that never sends any event (it keeps its own input alive so it never interrupts by itself).
    public static var never: Signal {
        Signal { input, lifetime in
            lifetime.observeEnded { _ = input }
        }
    }

    /// A signal that has already completed: observers receive a single `.interrupted` (see the late-observer
    /// rule).
    public static var empty: Signal {
        Signal { input, _ in input.sendCompleted() }
    }

    /// Attaches `observer`.
    ///
    /// - Parameters:
    ///   - observer: Receives every later event, serially.
    /// - Returns: A disposable that detaches just this observer (no effect on the signal or other observers),
    ///   or `nil` if the signal had already terminated, in which case `observer` has received `.interrupted`.
    @discardableResult
    public func observe(_ observer: Observer) -> (any Disposable)? {
        core.observe(observer)
    }
}
