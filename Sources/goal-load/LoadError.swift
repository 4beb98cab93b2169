/// Why goal-load could not run or what it found wrong; `description` says what to do.
///
/// Value type, `Sendable`.
struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable, Equatable {
        /// Bad flags or flag combinations (exit 2).
        case usage
        /// The daemon could not be reached or refused the setup (exit 3).
        case connect
        /// The run finished but convergence failed (exit 1).
        case convergence
    }

    var kind: Kind
    var message: String

    static func usage(_ message: String) -> LoadError { LoadError(kind: .usage, message: message) }
    static func connect(_ message: String) -> LoadError { LoadError(kind: .connect, message: message) }

    var description: String { message }
}
