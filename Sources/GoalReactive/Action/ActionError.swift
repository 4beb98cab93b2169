/// Why an ``Action`` execution attempt failed.
public enum ActionError<Error: Swift.Error>: Swift.Error {
    /// The action was disabled (its `enabledIf` condition was false, or it was already executing) when the
    /// `apply` producer was started; no work was created.
    case disabled

    /// The execution's producer failed with this error.
    case producerFailed(Error)
}

extension ActionError: Equatable where Error: Equatable {}

extension ActionError: Sendable where Error: Sendable {}

extension ActionError: CustomStringConvertible {
    /// `"disabled"` or `"producerFailed(e)"`.
    public var description: String {
        switch self {
        case .disabled: return "disabled"
        case let .producerFailed(error): return "producerFailed(\(error))"
        }
    }
}
