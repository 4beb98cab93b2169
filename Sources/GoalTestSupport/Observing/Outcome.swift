public import GoalClient
public import GoalReactive

/// Starts a producer at once and records how it ends: its values, its error, whether it completed.
///
/// Threading: main actor; for producers that send on it. Lifetime: the producer runs to its end whether or not
/// the outcome is still referenced.
@MainActor
public final class Outcome<Value, Failure: Error> {
    public private(set) var values: [Value] = []
    public private(set) var error: Failure?
    public private(set) var completed = false

    public init(_ producer: SignalProducer<Value, Failure>) {
        producer.start { [unowned self] event in
            switch event {
            case .value(let value): values.append(value)
            case .failed(let error): self.error = error
            case .completed: completed = true
            case .interrupted: break
            }
        }
    }

    /// True once it completed or failed.
    public var isFinished: Bool { completed || error != nil }
}

extension Outcome where Failure == ActionError<MutationError> {
    /// The server's (or the client's) error behind a failed `Action` execution; nil when it did not fail that way.
    public var mutationError: MutationError? {
        if case .producerFailed(let error) = error { return error }
        return nil
    }
}
