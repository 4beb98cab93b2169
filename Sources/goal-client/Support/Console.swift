import Foundation

/// Where goal-client writes: lines to standard output (results) and standard error (failures, hints).
/// Thread-safe: `FileHandle` writes are whole-buffer writes.
enum Console {
    /// Writes one line to standard output.
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
