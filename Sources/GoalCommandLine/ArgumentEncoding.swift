import Foundation

/// Checks the process's raw arguments and its `GOAL…` environment variables (`GOALD_*`, `GOAL_*`) before they are
/// read: `CommandLine.arguments` and `ProcessInfo.environment` repair bytes that are not UTF-8 into U+FFFD, so
/// `goal-client players add $'\xff'` would otherwise send (and the server store) a name nobody typed, and
/// `GOALD_NODE_ID` could name a node with it. Stateless.
public enum ArgumentEncoding {
    /// A usage message naming the first argument or `GOAL…` variable that is not valid UTF-8, or nil.
    public static func problem() -> String? {
        if let problem = problem(in: (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] }) {
            return problem
        }
        var variables: [UnsafeMutablePointer<CChar>] = []
        var cursor = environ
        while let entry = cursor.pointee {
            variables.append(entry)
            cursor += 1
        }
        return environmentProblem(in: variables)
    }

    /// The check of the arguments, over given C strings (index 0 is the program).
    static func problem(in arguments: [UnsafeMutablePointer<CChar>?]) -> String? {
        for (index, argument) in arguments.enumerated().dropFirst() {
            guard let argument, String(validatingCString: argument) == nil else { continue }
            return "argument \(index) (\(repaired(argument))) is not valid UTF-8; give text in UTF-8"
        }
        return nil
    }

    /// The check of `NAME=value` entries whose name starts with `GOAL`.
    static func environmentProblem(in variables: [UnsafeMutablePointer<CChar>]) -> String? {
        for entry in variables where strncmp(entry, "GOAL", 4) == 0 && String(validatingCString: entry) == nil {
            let text = repaired(entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            return "environment variable \(name) is not valid UTF-8; give text in UTF-8"
        }
        return nil
    }

    /// The C string as text, bytes that are not UTF-8 shown as U+FFFD (for the message only).
    private static func repaired(_ text: UnsafeMutablePointer<CChar>) -> String {
        String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }
}
