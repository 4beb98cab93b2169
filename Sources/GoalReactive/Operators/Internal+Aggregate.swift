import Foundation

/// A recursive lock for operators that combine several upstreams.
///
/// It is held while the operator sends to its output, so that the output sees results in the order the
/// shared state produced them; recursion lets a downstream observer feed one of the upstreams synchronously.
final class AggregateLock: @unchecked Sendable {
    // `@unchecked Sendable`: NSRecursiveLock is thread-safe by construction.
    private let lock = NSRecursiveLock()

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension SignalProducer {
    /// Starts every producer of `producers` for one start of the result: first every produced signal is set
    /// up and handed to `combine`, then the start handlers run in argument order.
    ///
    /// Disposing the result (or the combined signal terminating) interrupts every start.
    static func startingAll<U, F, R, G>(
        _ producers: [SignalProducer<U, F>],
        _ combine: @escaping ([Signal<U, F>]) -> Signal<R, G>
    ) -> SignalProducer<R, G> {
        SignalProducer<R, G> { observer, lifetime in
            // Nested so that every signal exists before any handler runs. `startWithSignal` runs its handler
            // after its setup closure returns, so the outermost (the last producer) starts last.
            func setUp(_ index: Int, _ signals: [Signal<U, F>]) {
                guard index >= 0 else {
                    lifetime += combine(signals.reversed()).observe(observer)
                    return
                }
                producers[index].startWithSignal { signal, interruptHandle in
                    lifetime += interruptHandle
                    setUp(index - 1, signals + [signal])
                }
            }
            setUp(producers.count - 1, [])
        }
    }
}

extension Signal {
    /// This signal with its values type-erased, for the heterogeneous forms of the aggregate operators.
    var erased: Signal<Any, Error> {
        map { $0 as Any }
    }
}

extension SignalProducer {
    /// This producer with its values type-erased, for the heterogeneous forms of the aggregate operators.
    var erased: SignalProducer<Any, Error> {
        map { $0 as Any }
    }
}
