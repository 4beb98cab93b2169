public import Dispatch
import Foundation

extension Signal {
    /// Collects every value and sends them as one array when `self` completes (`[]` if there were none).
    ///
    /// Nothing is sent on failure or interruption.
    ///
    /// - Returns: A signal of one array, then completion.
    public func collect() -> Signal<[Value], Error> {
        collect { _, _ in false }
    }

    /// Collects values into arrays of exactly `count`; on completion the non-empty remainder is sent too
    /// (or `[]` if `self` sent no value at all, as in ReactiveSwift).
    ///
    /// - Parameters:
    ///   - count: The array size; must be positive.
    /// - Returns: A signal of arrays.
    public func collect(count: Int) -> Signal<[Value], Error> {
        precondition(count > 0, "collect(count:) needs a positive count")
        return collect { values in values.count == count }
    }

    /// Collects values and sends the array whenever `shouldEmit` returns `true` for it (checked after each
    /// value is appended); on completion the non-empty remainder is sent (or `[]` if there was no value).
    ///
    /// - Parameters:
    ///   - shouldEmit: Decides, given the collected values, whether to send them now.
    /// - Returns: A signal of arrays.
    public func collect(_ shouldEmit: @escaping (_ collected: [Value]) -> Bool) -> Signal<[Value], Error> {
        collect(appending: true) { collected, _ in shouldEmit(collected) }
    }

    /// Collects values; before appending a value, sends the collected array if `shouldEmit(collected, value)`
    /// returns `true` (the value then starts the next array). On completion the non-empty remainder is sent
    /// (or `[]` if there was no value).
    ///
    /// - Parameters:
    ///   - shouldEmit: Decides, given the collected values and the next value, whether to send them first.
    /// - Returns: A signal of arrays.
    public func collect(
        _ shouldEmit: @escaping (_ collected: [Value], _ next: Value) -> Bool
    ) -> Signal<[Value], Error> {
        collect(appending: false, shouldEmit)
    }

    private func collect(
        appending appendFirst: Bool,
        _ shouldEmit: @escaping ([Value], Value) -> Bool
    ) -> Signal<[Value], Error> {
        Signal<[Value], Error> { output, lifetime in
            var collected: [Value] = []
            var receivedAny = false
            lifetime += self.observe { event in
                switch event {
                case let .value(value):
                    receivedAny = true
                    if appendFirst {
                        collected.append(value)
                        if shouldEmit(collected, value) {
                            output.send(value: collected)
                            collected.removeAll(keepingCapacity: true)
                        }
                    } else {
                        if shouldEmit(collected, value) {
                            output.send(value: collected)
                            collected.removeAll(keepingCapacity: true)
                        }
                        collected.append(value)
                    }
                case .completed:
                    if !collected.isEmpty || !receivedAny { output.send(value: collected) }
                    output.sendCompleted()
                case let .failed(error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// Collects values and sends them every `interval` on `scheduler`.
    ///
    /// Threading: arrays and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The period, starting when the result is created.
    ///   - scheduler: Runs the periodic emission and delivers terminal events.
    ///   - skipEmpty: Whether to skip a period in which nothing was collected.
    ///   - discardWhenCompleted: `true`: on completion drop what was collected and complete on the scheduler's
    ///     next turn; `false`: complete at the next period, after sending what was collected.
    /// - Returns: A signal of arrays.
    public func collect(
        every interval: DispatchTimeInterval,
        on scheduler: any DateScheduler,
        skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> Signal<[Value], Error> {
        Signal<[Value], Error> { output, lifetime in
            let state = CollectEveryState<Value>()
            let terminal = SerialDisposable()
            lifetime += terminal
            lifetime += scheduler.schedule(
                after: scheduler.currentDate.addingTimeInterval(interval.timeInterval),
                interval: interval
            ) {
                let (values, isCompleted) = state.take()
                if !values.isEmpty || !skipEmpty { output.send(value: values) }
                if isCompleted { output.sendCompleted() }
            }
            lifetime += self.observe { event in
                switch event {
                case let .value(value): state.append(value)
                case .completed where !discardWhenCompleted: state.complete()
                default: terminal.inner = scheduler.schedule { output.send(event.map { [$0] }) }
                }
            }
        }
    }
}

/// The buffer of ``Signal/collect(every:on:skipEmpty:discardWhenCompleted:)``, shared by the upstream and the
/// scheduler.
private final class CollectEveryState<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `values` and `isCompleted` are only touched under `lock`.
    private let lock = Lock()
    private var values: [Value] = []
    private var isCompleted = false

    func append(_ value: Value) { lock.withLock { values.append(value) } }

    func complete() { lock.withLock { isCompleted = true } }

    func take() -> ([Value], Bool) {
        lock.withLock {
            defer { values.removeAll() }
            return (values, isCompleted)
        }
    }
}

extension SignalProducer {
    /// Collects every value and sends them as one array on completion.
    ///
    /// - Returns: A producer of one array, then completion.
    public func collect() -> SignalProducer<[Value], Error> {
        liftEvents { $0.collect() }
    }

    /// Collects values into arrays of exactly `count`, plus the remainder on completion.
    ///
    /// - Parameters:
    ///   - count: The array size; must be positive.
    /// - Returns: A producer of arrays.
    public func collect(count: Int) -> SignalProducer<[Value], Error> {
        liftEvents { $0.collect(count: count) }
    }

    /// Collects values and sends the array whenever `shouldEmit` returns `true` for it.
    ///
    /// - Parameters:
    ///   - shouldEmit: Decides, given the collected values, whether to send them now.
    /// - Returns: A producer of arrays.
    public func collect(_ shouldEmit: @escaping (_ collected: [Value]) -> Bool) -> SignalProducer<[Value], Error> {
        liftEvents { $0.collect(shouldEmit) }
    }

    /// Collects values; sends the collected array before a value for which `shouldEmit` returns `true`.
    ///
    /// - Parameters:
    ///   - shouldEmit: Decides, given the collected values and the next value, whether to send them first.
    /// - Returns: A producer of arrays.
    public func collect(
        _ shouldEmit: @escaping (_ collected: [Value], _ next: Value) -> Bool
    ) -> SignalProducer<[Value], Error> {
        liftEvents { $0.collect(shouldEmit) }
    }

    /// Collects values and sends them every `interval` on `scheduler`.
    ///
    /// Threading: arrays and terminal events are sent on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The period, starting at each start.
    ///   - scheduler: Runs the periodic emission and delivers terminal events.
    ///   - skipEmpty: Whether to skip a period in which nothing was collected.
    ///   - discardWhenCompleted: Whether completion drops what was collected since the last period.
    /// - Returns: A producer of arrays.
    public func collect(
        every interval: DispatchTimeInterval,
        on scheduler: any DateScheduler,
        skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> SignalProducer<[Value], Error> {
        liftEvents(interruptingOn: scheduler) {
            $0.collect(every: interval, on: scheduler, skipEmpty: skipEmpty, discardWhenCompleted: discardWhenCompleted)
        }
    }
}
