import GoalClient
import GoalReactive
import Testing

/// Why a live test gave up.
struct LiveTestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits on the main actor until `condition` holds, suspending between checks so the main queue (where
/// `LiveLeagueStore` delivers) drains. The deadline only bounds a hang: it is generous, and reaching it is a
/// failure that names what was awaited; how fast the condition comes true never decides the result.
///
/// - Parameters:
///   - what: What is awaited, for the failure message.
///   - limit: The deadline (default 30 s).
///   - condition: Checked on the main actor.
/// - Throws: `LiveTestTimeout` when the deadline passes first.
@MainActor
func eventually(
    _ what: String,
    within limit: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while try !condition() {
        guard clock.now < deadline else {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            throw LiveTestTimeout(what: what)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Records every value of a signal (or property) delivered on the main actor.
@MainActor
final class Recorder<Value> {
    private(set) var values: [Value] = []
    private var disposable: (any Disposable)?

    init(_ signal: Signal<Value, Never>) {
        disposable = signal.observeValues { [unowned self] in values.append($0) }
    }

    init(_ property: Property<Value>) {
        disposable = property.producer.startWithValues { [unowned self] in values.append($0) }
    }

    /// Returns and forgets the values so far.
    func take() -> [Value] {
        defer { values = [] }
        return values
    }

    deinit { disposable?.dispose() }
}

/// Starts a producer and records how it ended.
@MainActor
final class Outcome<Value, Failure: Error> {
    private(set) var values: [Value] = []
    private(set) var error: Failure?
    private(set) var completed = false

    init(_ producer: SignalProducer<Value, Failure>) {
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
    var isFinished: Bool { completed || error != nil }
}

extension Outcome where Failure == ActionError<MutationError> {
    /// The server's (or the client's) error behind a failed `Action` execution; nil when it did not fail that way.
    var mutationError: MutationError? {
        if case .producerFailed(let error) = error { return error }
        return nil
    }
}
