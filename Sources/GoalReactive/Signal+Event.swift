extension Signal {
    /// One event of a stream. The grammar every stream obeys is `value* (failed | completed | interrupted)?`:
    /// any number of values, then at most one terminal event, then nothing.
    public enum Event {
        /// A value; any number may occur before termination.
        case value(Value)
        /// Abnormal termination.
        case failed(Error)
        /// Successful termination.
        case completed
        /// Cancellation: neither success nor failure.
        case interrupted

        /// Whether this event ends the stream (`failed`, `completed` or `interrupted`).
        public var isTerminating: Bool {
            if case .value = self { return false }
            return true
        }

        /// Whether this is `completed`.
        public var isCompleted: Bool {
            if case .completed = self { return true }
            return false
        }

        /// The payload of a `value` event, otherwise `nil`.
        public var value: Value? {
            if case let .value(value) = self { return value }
            return nil
        }

        /// The error of a `failed` event, otherwise `nil`.
        public var error: Error? {
            if case let .failed(error) = self { return error }
            return nil
        }

        /// Transforms the payload of a `value` event; other events pass through.
        ///
        /// - Parameters:
        ///   - transform: Applied to the payload.
        /// - Returns: The transformed event.
        public func map<U>(_ transform: (Value) throws -> U) rethrows -> Signal<U, Error>.Event {
            switch self {
            case let .value(value): return .value(try transform(value))
            case let .failed(error): return .failed(error)
            case .completed: return .completed
            case .interrupted: return .interrupted
            }
        }

        /// Transforms the error of a `failed` event; other events pass through.
        ///
        /// - Parameters:
        ///   - transform: Applied to the error.
        /// - Returns: The transformed event.
        public func mapError<F>(_ transform: (Error) throws -> F) rethrows -> Signal<Value, F>.Event {
            switch self {
            case let .value(value): return .value(value)
            case let .failed(error): return .failed(try transform(error))
            case .completed: return .completed
            case .interrupted: return .interrupted
            }
        }
    }
}

extension Signal.Event: Equatable where Value: Equatable, Error: Equatable {}

extension Signal.Event: Sendable where Value: Sendable, Error: Sendable {}

extension Signal.Event: CustomStringConvertible {
    /// `"VALUE x"`, `"FAILED e"`, `"COMPLETED"` or `"INTERRUPTED"`.
    public var description: String {
        switch self {
        case let .value(value): return "VALUE \(value)"
        case let .failed(error): return "FAILED \(error)"
        case .completed: return "COMPLETED"
        case .interrupted: return "INTERRUPTED"
        }
    }
}
