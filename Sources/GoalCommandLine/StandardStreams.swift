import GoalLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command-line tools (goald, goal-client, goal-load) write their lines: results to standard output,
/// failures, hints and progress to standard error.
///
/// A closed output ends the process quietly, as git and kubectl do: SIGPIPE is ignored (`ignoreBrokenPipe()`, the
/// first thing `main` does, and again before the first write), so a write to a pipe whose reader is gone fails with
/// EPIPE instead of killing the process, and `out` then exits at once with status 0 (`goald token list | head -1`,
/// `goal-client tail --json | head -1`). A line that cannot go to a closed standard error is dropped.
///
/// Thread-safe: each line is written whole (a `write(2)` loop) under one lock, so lines from different threads
/// never interleave.
public enum StandardStreams {
    private static let lock = LockedValue(())

    /// Ignores SIGPIPE for the whole process (idempotent): a closed pipe becomes EPIPE on the write.
    public static func ignoreBrokenPipe() {
        _ = brokenPipeIgnored
    }

    private static let brokenPipeIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Writes one line to standard output; when its reader is gone, ends the process with status 0.
    public static func out(_ line: String) {
        guard write(line + "\n", to: STDOUT_FILENO) else { _exit(0) }
    }

    /// Writes one line to standard error (dropped when standard error is closed).
    public static func error(_ line: String) {
        _ = write(line + "\n", to: STDERR_FILENO)  // a closed stderr has no one left to tell
    }

    /// Writes `text` without a newline to standard error (a prompt; dropped when standard error is closed).
    public static func prompt(_ text: String) {
        _ = write(text, to: STDERR_FILENO)  // a closed stderr has no one left to tell
    }

    /// Writes all of `text` to `descriptor`, retrying short writes and EINTR.
    /// - Returns: false when the descriptor cannot take it (EPIPE: the reader is gone; or another error).
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        ignoreBrokenPipe()
        var bytes = Array(text.utf8)
        return lock.withLock { _ in
            bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return true }
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
        }
    }
}

/// `write(2)`, whichever C library this is.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
