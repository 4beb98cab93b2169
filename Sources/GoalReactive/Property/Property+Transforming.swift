/// Property combinators that transform one property. Each returns a composed ``Property``: it caches its value,
/// does not retain `self`, and its streams complete when `self`'s (ultimate) source deinitializes.
extension PropertyProtocol {
    /// The transformed current value and every transformed later value.
    ///
    /// - Parameters:
    ///   - transform: Applied to each value, on the thread that set it.
    /// - Returns: A composed property.
    public func map<U>(_ transform: @escaping (Value) -> U) -> Property<U> {
        let source = producer
        return Property(composing: { sink in source.start { sink($0.map(transform)) } })
    }

    /// The value at `keyPath` of the current value and of every later value.
    ///
    /// - Parameters:
    ///   - keyPath: Read from each value.
    /// - Returns: A composed property.
    public func map<U>(_ keyPath: KeyPath<Value, U>) -> Property<U> {
        map { $0[keyPath: keyPath] }
    }

    /// The current value, then every later value not equivalent to the **immediately preceding received** value
    /// (the comparison value is updated even when a value is skipped). Only that one previous value is retained.
    ///
    /// - Parameters:
    ///   - isEquivalent: Whether two consecutive values count as a repeat.
    /// - Returns: A composed property.
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Property<Value> {
        let source = producer
        return Property(composing: { sink in
            // Touched only from the source's serialized deliveries.
            var previous: Value?
            source.start { event in
                if case let .value(value) = event {
                    defer { previous = value }
                    if let previous, isEquivalent(previous, value) { return }
                }
                sink(event)
            }
        })
    }

    /// Starts from `initial` only if the current value fails `predicate`, otherwise from the current value; then
    /// keeps the last value that passed.
    ///
    /// - Parameters:
    ///   - initial: The value while no value has passed.
    ///   - predicate: Which values to keep.
    /// - Returns: A composed property.
    public func filter(initial: Value, _ predicate: @escaping (Value) -> Bool) -> Property<Value> {
        let source = producer
        return Property(composing: { sink in
            var isFirst = true
            source.start { event in
                if case let .value(value) = event, !predicate(value) {
                    if isFirst { sink(.value(initial)) }
                    isFirst = false
                    return
                }
                isFirst = false
                sink(event)
            }
        })
    }

    /// `(previous, current)` pairs, starting with `(initial, current value)`.
    ///
    /// - Parameters:
    ///   - initial: The "previous" value paired with the current value.
    /// - Returns: A composed property.
    public func combinePrevious(_ initial: Value) -> Property<(previous: Value, current: Value)> {
        let source = producer
        return Property(composing: { sink in
            var previous = initial
            source.start { event in
                sink(
                    event.map { value in
                        defer { previous = value }
                        return (previous, value)
                    }
                )
            }
        })
    }
}

extension PropertyProtocol where Value: Equatable {
    /// ``skipRepeats(_:)`` with `==`.
    ///
    /// - Returns: A composed property.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

extension PropertyProtocol where Value == Bool {
    /// The logical negation of the current and every later value.
    ///
    /// - Returns: A composed property.
    public func negate() -> Property<Bool> {
        map { !$0 }
    }

    /// `self && other`, recomputed whenever either changes.
    ///
    /// - Parameters:
    ///   - other: The other operand.
    /// - Returns: A composed property completing when both sources are gone.
    public func and<P: PropertyProtocol>(_ other: P) -> Property<Bool> where P.Value == Bool {
        Property.combineLatest(self, other).map { $0 && $1 }
    }

    /// `self || other`, recomputed whenever either changes.
    ///
    /// - Parameters:
    ///   - other: The other operand.
    /// - Returns: A composed property completing when both sources are gone.
    public func or<P: PropertyProtocol>(_ other: P) -> Property<Bool> where P.Value == Bool {
        Property.combineLatest(self, other).map { $0 || $1 }
    }
}

extension Property where Value == Bool {
    /// `true` while every property in `properties` is `true` (`true` for an empty sequence).
    ///
    /// - Parameters:
    ///   - properties: The operands.
    /// - Returns: A composed property.
    public static func all<S: Sequence>(_ properties: S) -> Property<Bool> where S.Element: PropertyProtocol<Bool> {
        Property<Bool>.combineLatest(properties)?.map { $0.allSatisfy { $0 } } ?? Property(value: true)
    }

    /// `true` while any property in `properties` is `true` (`false` for an empty sequence).
    ///
    /// - Parameters:
    ///   - properties: The operands.
    /// - Returns: A composed property.
    public static func any<S: Sequence>(_ properties: S) -> Property<Bool> where S.Element: PropertyProtocol<Bool> {
        Property<Bool>.combineLatest(properties)?.map { $0.contains(true) } ?? Property(value: false)
    }
}
