/// A repeatable, serialized unit of work — a command such as "save" or "refresh" — with observable
/// ``isExecuting`` and ``isEnabled`` state.
///
/// `apply(input)` has no side effect; **each start** of the producer it returns is one execution attempt:
/// - If the action is enabled (its condition holds and nothing is executing), it is marked executing and the work
///   (`execute`) is started; otherwise that start fails with ``ActionError/disabled``, `()` is sent on
///   ``disabledErrors``, and no work is created. So a second, concurrent apply — from any thread — is rejected
///   while the first runs.
/// - Each event of the work reaches the `apply` subscriber first (failures wrapped as
///   ``ActionError/producerFailed(_:)``), then ``events`` and its projections ``values``, ``errors`` and
///   ``completed`` (which fires only for completed executions).
/// - For work that terminates asynchronously the order is: `isEnabled` false → `isExecuting` true → apply VALUE →
///   `values` → apply COMPLETED → `isEnabled` true → `isExecuting` false → `completed`. For work that completes
///   synchronously inside the start, `values` and `completed` fire while `isExecuting` is still true, and it turns
///   false just afterwards (ReactiveSwift 7.2.1; do not build logic on this difference).
/// - Disposing the apply disposable interrupts the work and ends the execution.
///
/// Threading: thread-safe; `apply` producers may be started from any thread. The work's events are delivered on
/// whatever thread it sends them. `isEnabled` and `isExecuting` have their own storage, so binding them back into
/// the action's state property (e.g. `enabled <~ action.isExecuting.negate()`) does not deadlock.
///
/// Lifetime: the action retains its state property. A running execution retains the action until it ends. When
/// the action deinitializes, ``lifetime`` ends, and ``events`` (hence its projections) and ``disabledErrors``
/// complete.
public final class Action<Input, Output, Error: Swift.Error>: @unchecked Sendable {
    // `@unchecked Sendable`: stored properties are immutable; `ActionState` and the pipes are thread-safe.
    private let execute: (Any, Input) -> SignalProducer<Output, Error>
    private let state: ActionState
    private let retainedState: AnyObject
    private let eventsObserver: Signal<Signal<Output, Error>.Event, Never>.Observer
    private let disabledErrorsObserver: Signal<(), Never>.Observer
    private let token: Lifetime.Token

    /// Ends when the action deinitializes.
    public let lifetime: Lifetime
    /// Every event of every execution (not of rejected attempts).
    public let events: Signal<Signal<Output, Error>.Event, Never>
    /// The values of every execution.
    public let values: Signal<Output, Never>
    /// The errors of failed executions (unwrapped; not ``ActionError/disabled``).
    public let errors: Signal<Error, Never>
    /// `()` for each execution that completed (not on failure, interruption or rejected attempts).
    public let completed: Signal<(), Never>
    /// `()` for each start rejected because the action was disabled.
    public let disabledErrors: Signal<(), Never>
    /// `true` from the start of an execution until its work terminates or is disposed.
    public let isExecuting: Property<Bool>
    /// The condition holds and nothing is executing; emits only on actual change.
    public let isEnabled: Property<Bool>

    /// Creates an action enabled while `isEnabled(state.value)` holds (and nothing executes).
    ///
    /// - Parameters:
    ///   - state: A property whose latest value is passed to `execute`; retained by the action.
    ///   - isEnabled: The user condition on the state's latest value.
    ///   - execute: Creates the work of one execution from the state value the condition saw and the input.
    public init<State: PropertyProtocol>(
        state: State,
        enabledIf isEnabled: @escaping (State.Value) -> Bool,
        execute: @escaping (State.Value, Input) -> SignalProducer<Output, Error>
    ) {
        self.execute = { stateValue, input in execute(stateValue as! State.Value, input) }
        retainedState = state
        let actionState = ActionState(value: state.value) { isEnabled($0 as! State.Value) }
        self.state = actionState
        (lifetime, token) = Lifetime.make()
        (events, eventsObserver) = Signal.pipe()
        (disabledErrors, disabledErrorsObserver) = Signal.pipe()
        // Projections observe `events` before any user observer can.
        values = Action.project(events) { $0.value }
        errors = Action.project(events) { $0.error }
        completed = Action.project(events) { $0.isCompleted ? () : nil }
        self.isEnabled = Property(capturing: actionState.isEnabledProperty)
        self.isExecuting = Property(capturing: actionState.isExecutingProperty)
        lifetime += state.producer.startWithValues { actionState.update($0) }
    }

    deinit {
        eventsObserver.sendCompleted()
        disabledErrorsObserver.sendCompleted()
    }

    /// Creates an action always enabled (while nothing executes) that receives the state's latest value.
    ///
    /// - Parameters:
    ///   - state: Retained by the action.
    ///   - execute: Creates the work from the state's latest value and the input.
    public convenience init<State: PropertyProtocol>(
        state: State,
        execute: @escaping (State.Value, Input) -> SignalProducer<Output, Error>
    ) {
        self.init(state: state, enabledIf: { _ in true }, execute: execute)
    }

    /// Creates an action enabled while `isEnabled` is `true` (and nothing executes).
    ///
    /// - Parameters:
    ///   - isEnabled: The user condition; retained by the action.
    ///   - execute: Creates the work of one execution.
    public convenience init<P: PropertyProtocol>(
        enabledIf isEnabled: P,
        execute: @escaping (Input) -> SignalProducer<Output, Error>
    ) where P.Value == Bool {
        self.init(state: isEnabled, enabledIf: { $0 }, execute: { _, input in execute(input) })
    }

    /// Creates an action enabled whenever nothing executes.
    ///
    /// - Parameters:
    ///   - execute: Creates the work of one execution.
    public convenience init(execute: @escaping (Input) -> SignalProducer<Output, Error>) {
        self.init(enabledIf: Property(value: true), execute: execute)
    }

    /// Creates an action enabled while the state is non-`nil`; `execute` receives the unwrapped state.
    ///
    /// - Parameters:
    ///   - state: Retained by the action.
    ///   - execute: Creates the work from the unwrapped state and the input.
    public convenience init<State: PropertyProtocol, T>(
        unwrapping state: State,
        execute: @escaping (T, Input) -> SignalProducer<Output, Error>
    ) where State.Value == T? {
        self.init(state: state, enabledIf: { $0 != nil }, execute: { execute($0!, $1) })
    }

    /// A producer whose every start is one execution attempt with `input`; see the type's documentation.
    ///
    /// - Parameters:
    ///   - input: Passed to `execute`.
    /// - Returns: The execution's events, failures wrapped in ``ActionError``; fails with
    ///   ``ActionError/disabled`` if the action is disabled when started.
    public func apply(_ input: Input) -> SignalProducer<Output, ActionError<Error>> {
        SignalProducer { observer, lifetime in
            guard let stateValue = self.state.beginExecution() else {
                observer.send(error: .disabled)
                self.disabledErrorsObserver.send(value: ())
                return
            }
            let interruptHandle = self.execute(stateValue, input).start { event in
                observer.send(event.mapError(ActionError.producerFailed))
                self.eventsObserver.send(value: event)
            }
            lifetime.observeEnded {
                interruptHandle.dispose()
                self.state.endExecution()
            }
        }
    }

    /// A signal of `transform(event)` for each event of `events` where it is non-`nil`; ends with `events`.
    private static func project<T>(
        _ events: Signal<Signal<Output, Error>.Event, Never>,
        _ transform: @escaping (Signal<Output, Error>.Event) -> T?
    ) -> Signal<T, Never> {
        Signal { output, lifetime in
            lifetime += events.observe { event in
                switch event {
                case let .value(inner):
                    if let projected = transform(inner) { output.send(value: projected) }
                case .completed: output.sendCompleted()
                default: output.sendInterrupted()
                }
            }
        }
    }
}

extension Action where Input == Void {
    /// `apply(())`.
    ///
    /// - Returns: See ``apply(_:)``.
    public func apply() -> SignalProducer<Output, ActionError<Error>> {
        apply(())
    }

    /// Creates an action always enabled (while nothing executes) whose work depends only on the state.
    ///
    /// - Parameters:
    ///   - state: Retained by the action.
    ///   - execute: Creates the work from the state's latest value.
    public convenience init<State: PropertyProtocol>(
        state: State,
        execute: @escaping (State.Value) -> SignalProducer<Output, Error>
    ) {
        self.init(state: state, enabledIf: { _ in true }, execute: { value, _ in execute(value) })
    }

    /// Creates an action enabled while the state is non-`nil`, whose work depends only on the unwrapped state.
    ///
    /// - Parameters:
    ///   - state: Retained by the action.
    ///   - execute: Creates the work from the unwrapped state.
    public convenience init<State: PropertyProtocol, T>(
        unwrapping state: State,
        execute: @escaping (T) -> SignalProducer<Output, Error>
    ) where State.Value == T? {
        self.init(state: state, enabledIf: { $0 != nil }, execute: { value, _ in execute(value!) })
    }
}

extension Action: BindingTargetProvider {
    /// Each bound value starts `apply(value)` (rejected silently while disabled); ends with the action.
    public var bindingTarget: BindingTarget<Input> {
        BindingTarget(lifetime: lifetime) { [weak self] input in self?.apply(input).start() }
    }
}
