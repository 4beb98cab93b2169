extension Signal {
    /// Drops every value that `isEquivalent` considers a repeat of the value received just before it.
    ///
    /// The first value is always forwarded. Each later value is compared with the **immediately preceding
    /// received** value (which is updated even when a value is dropped); only that one value is retained.
    ///
    /// - Parameters:
    ///   - isEquivalent: Returns `true` if the second value repeats the first.
    /// - Returns: A signal without consecutive repeats.
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            var previous: Value?
            lifetime += self.observe { event in
                guard case let .value(value) = event else { return output.send(event) }
                let isRepeat = previous.map { isEquivalent($0, value) } ?? false
                previous = value
                if !isRepeat { output.send(value: value) }
            }
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops every value equal to the value received just before it.
    ///
    /// - Returns: A signal without consecutive duplicates.
    public func skipRepeats() -> Signal<Value, Error> {
        skipRepeats(==)
    }
}

extension SignalProducer {
    /// Drops every value that `isEquivalent` considers a repeat of the value received just before it.
    ///
    /// - Parameters:
    ///   - isEquivalent: Returns `true` if the second value repeats the first.
    /// - Returns: A producer without consecutive repeats.
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> SignalProducer<Value, Error> {
        liftEvents { $0.skipRepeats(isEquivalent) }
    }
}

extension SignalProducer where Value: Equatable {
    /// Drops every value equal to the value received just before it.
    ///
    /// - Returns: A producer without consecutive duplicates.
    public func skipRepeats() -> SignalProducer<Value, Error> {
        liftEvents { $0.skipRepeats() }
    }
}
