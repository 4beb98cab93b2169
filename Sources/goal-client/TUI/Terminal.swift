import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The saved terminal state, readable from a signal handler (which may only call async-signal-safe functions:
/// `tcsetattr`, `write`, `signal`, `raise`). Written once before raw mode starts, on the main thread.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var hasSavedTermios = false

/// Leaves the alternate screen, shows the cursor and restores the saved line discipline. Async-signal-safe.
private func restoreTerminalNow() {
    guard hasSavedTermios else { return }
    let leave: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    _ = write(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTermios)
}

/// A fatal signal: restore the terminal, then die of the same signal with its default action.
private func fatalSignalHandler(_ number: Int32) {
    restoreTerminalNow()
    signal(number, SIG_DFL)
    raise(number)
}

/// The controlling terminal in full-screen mode: raw input (termios: no echo, no line buffering, no signals
/// from keys, so Ctrl-C arrives as a byte), the alternate screen, a hidden cursor. `restore()` puts everything
/// back exactly; it also runs on a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) through an
/// async-signal-safe handler.
///
/// Threading: use from the main thread. Lifetime: `enter()` once, `restore()` once (idempotent).
@MainActor
final class Terminal {
    private(set) var isActive = false

    /// Whether standard input and output are terminals.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The window size in columns and rows (80×24 when unknown).
    static var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Saves the terminal state and enters raw mode and the alternate screen.
    /// - Throws: `CLIFailure.usage` when standard input is not a terminal.
    func enter() throws(CLIFailure) {
        guard Self.isInteractive else {
            throw .usage("the full-screen UI needs a terminal; use the subcommands in scripts (goal-client --help)")
        }
        guard tcgetattr(STDIN_FILENO, &savedTermios) == 0 else {
            throw .usage("cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        hasSavedTermios = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
            signal(number, fatalSignalHandler)
        }
        var raw = savedTermios
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        isActive = true
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Restores the terminal as it was before `enter()`.
    func restore() {
        guard isActive else { return }
        isActive = false
        restoreTerminalNow()
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
            signal(number, SIG_DFL)
        }
    }

    /// Writes bytes to the terminal, retrying short writes.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
