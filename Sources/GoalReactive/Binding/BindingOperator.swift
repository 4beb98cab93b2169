/// Binds a source to a target: right-associative, binding tighter than assignment (as in ReactiveSwift).
precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
}

infix operator <~ : BindingPrecedence

extension BindingTargetProvider {
    /// Binds `source` to `target`: starts `source.bindingProducer` once and applies every value to the target.
    ///
    /// The binding ends when (1) the target's lifetime ends — e.g. a ``MutableProperty`` deinitializes: the
    /// source's start is interrupted and, for a signal source, the observation removed; (2) the source completes
    /// or is interrupted; or (3) the returned disposable is disposed. A property source delivers its current
    /// value immediately; a signal source changes nothing until it sends. The binding retains neither the target
    /// nor its owner (only the target's action, which holds the owner weakly).
    ///
    /// - Parameters:
    ///   - target: Receives the values.
    ///   - source: Supplies the values.
    /// - Returns: A disposable ending the binding, or `nil` if the target's lifetime had already ended (nothing is
    ///   applied then).
    @discardableResult
    public static func <~ <Source: BindingSource>(
        target: Self,
        source: Source
    ) -> (any Disposable)? where Source.Value == Value {
        let bindingTarget = target.bindingTarget
        let lifetime = bindingTarget.lifetime
        let action = bindingTarget.action
        guard !lifetime.hasEnded else { return nil }
        return source.bindingProducer.startWithSignal { signal, interruptHandle in
            // The target's end interrupts this start; the start's end unregisters that, so that finished bindings
            // do not accumulate on a long-lived target's lifetime.
            let endObservation = lifetime.observeEnded { interruptHandle.dispose() }
            signal.observe { event in
                if case let .value(value) = event {
                    action(value)
                } else {
                    endObservation?.dispose()
                }
            }
            return interruptHandle
        }
    }

    /// Binds a source of non-optional values to a target of optional values (each value is wrapped).
    ///
    /// - Parameters:
    ///   - target: Receives the wrapped values.
    ///   - source: Supplies the values.
    /// - Returns: See ``<~(_:_:)``.
    @discardableResult
    public static func <~ <Source: BindingSource, Wrapped>(
        target: Self,
        source: Source
    ) -> (any Disposable)? where Value == Wrapped?, Source.Value == Wrapped {
        let wrapping = SignalProducer<Wrapped?, Never> { observer, lifetime in
            lifetime += source.bindingProducer.start { observer.send($0.map { Optional($0) }) }
        }
        return target <~ wrapping
    }
}

extension Signal.Observer {
    /// Forwards the values of `source` to `observer` (held weakly); terminal events are not forwarded.
    ///
    /// - Parameters:
    ///   - observer: Receives the values.
    ///   - source: Supplies the values.
    /// - Returns: A disposable ending the binding.
    @discardableResult
    public static func <~ <Source: BindingSource>(
        observer: Signal<Value, Error>.Observer,
        source: Source
    ) -> any Disposable where Source.Value == Value {
        source.bindingProducer.startWithValues { [weak observer] value in observer?.send(value: value) }
    }
}
