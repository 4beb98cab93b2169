import Foundation
import GoalCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command reads from and writes to outside its arguments: the environment, the working directory,
/// whether standard output (and input) is a terminal, where its output lines go and where typed answers come from.
/// `live()` is the real process; tests pass their own so they never touch the process environment or standard
/// streams.
///
/// Value type, `Sendable`.
struct CommandContext: Sendable {
    var environment: [String: String]
    var workingDirectory: String
    /// True when standard output is a terminal (secrets are shown only then).
    var standardOutputIsTerminal: Bool
    /// Writes one line (a newline is added) to standard output.
    var output: @Sendable (String) -> Void
    /// True when standard input is a terminal (a question may be asked only then).
    var standardInputIsTerminal = false
    /// Reads one typed line (without its newline); nil at the end of input.
    var readLine: @Sendable () -> String? = { nil }

    /// The running process.
    static func live() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment,
            workingDirectory: FileManager.default.currentDirectoryPath,
            standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
            output: { line in StandardStreams.out(line) },
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            readLine: { Swift.readLine(strippingNewline: true) }
        )
    }
}
