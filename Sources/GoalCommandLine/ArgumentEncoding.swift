import Foundation

/// Checks the process's raw arguments before ArgumentParser reads them: `CommandLine.arguments` repairs bytes that
/// are not UTF-8 into U+FFFD, so `goal-client players add $'\xff'` would otherwise send (and the server store) a
/// name nobody typed. Stateless.
public enum ArgumentEncoding {
    /// A usage message naming the first argument that is not valid UTF-8, or nil when every argument is.
    public static func problem() -> String? {
        problem(in: (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] })
    }

    /// The same check over given C strings (index 0 is the program).
    static func problem(in arguments: [UnsafeMutablePointer<CChar>?]) -> String? {
        for (index, argument) in arguments.enumerated().dropFirst() {
            guard let argument else { continue }
            if String(validatingCString: argument) == nil {
                let shown = String(
                    decoding: UnsafeRawBufferPointer(start: argument, count: strlen(argument)),
                    as: UTF8.self
                )
                return "argument \(index) (\(shown)) is not valid UTF-8; give text in UTF-8"
            }
        }
        return nil
    }
}
