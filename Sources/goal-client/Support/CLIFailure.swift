import Foundation

/// A failure that ends a goal-client command: an exit code (docs/RULES.md "Exit codes") and a message that says
/// what went wrong and what to do. Value type, `Sendable`.
struct CLIFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The process exit codes (docs/RULES.md "Exit codes").
    enum Code: Int32, Sendable, Equatable {
        case ok = 0
        /// The server refused the request: any `rejected` code (conflict, not_found, name_taken, empty_side, …).
        case refused = 1
        /// Bad command line or missing configuration.
        case usage = 2
        /// The server cannot be reached, or TLS failed.
        case cannotConnect = 3
        /// The token is missing, unknown, revoked, or its role does not allow the request.
        case unauthorized = 4
        /// A mutation was sent and no answer came, even after re-sending it with the same id.
        case outcomeUnknown = 5
        /// The server is unreachable: the edit is queued in the persisted outbox, not yet acknowledged; the next
        /// goal-client run that connects sends it with the same id.
        case queued = 6
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }

    static func refused(_ message: String) -> CLIFailure { CLIFailure(.refused, message) }
    static func usage(_ message: String) -> CLIFailure { CLIFailure(.usage, message) }
    static func cannotConnect(_ message: String) -> CLIFailure { CLIFailure(.cannotConnect, message) }
    static func unauthorized(_ message: String) -> CLIFailure { CLIFailure(.unauthorized, message) }
    static func outcomeUnknown(_ message: String) -> CLIFailure { CLIFailure(.outcomeUnknown, message) }
    static func queued(_ message: String) -> CLIFailure { CLIFailure(.queued, message) }
}

extension CLIFailure {
    /// A transport failure's message without its own "cannot connect to HOST:PORT: " opening and its own
    /// "is goald running" question, for a sentence that already says that it cannot connect (and to which server)
    /// and ends with the hint: the failure is said once, not once per layer.
    static func connectionDetail(_ message: String) -> String {
        let detail = message.replacingOccurrences(of: " (is goald running on this port?)", with: "")
        guard detail.hasPrefix("cannot connect to "), let colon = detail.range(of: ": ") else { return detail }
        return String(detail[colon.upperBound...])
    }
}
