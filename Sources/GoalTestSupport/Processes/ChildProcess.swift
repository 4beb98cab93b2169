public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` on its own pid.
///
/// Tests use this instead of Foundation's `Process`: on Linux, `Process` reaps children from a SIGCHLD handler
/// that can miss an exit when the test process also has other children (tmux clients, which fork the tmux server),
/// leaving a zombie and a test waiting forever; and `Process.run()` itself crashed (SIGSEGV in `memcpy`) while
/// parallel tests started children at the same time. Every test that starts a child process uses this type.
/// Standard streams go to files (never pipes, which a child can fill and block on). Sendable: the pid only; any
/// thread may poll, wait or kill. The child lives until it exits or is killed; a caller that starts one waits for it.
public struct ChildProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
    /// - Parameters:
    ///   - environment: The whole environment, or nil to inherit this process's.
    ///   - stdin: A file to read standard input from (nil: /dev/null).
    ///   - stdout: A file for standard output (created or truncated; nil: /dev/null).
    ///   - stderr: A file for standard error (nil: /dev/null).
    ///   - stdoutDescriptor: A descriptor to use as standard output instead of `stdout` (a pipe's write end, for
    ///     tests of a closed output); the caller closes its own copy after the spawn.
    ///   - workingDirectory: The child's current directory (nil: this process's).
    public static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        stdin: String? = nil,
        stdout: String? = nil,
        stderr: String? = nil,
        stdoutDescriptor: Int32? = nil,
        workingDirectory: String? = nil
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this test process: parallel tests' in-process daemons have listening sockets open, and a
        // child that inherits one (the long-lived tmux server above all) keeps that port accepting connections
        // after its daemon stopped, which a restart test then reaches.
        _ = closeFrom?(&actions, 3)  // glibc ≥ 2.34 has it; without it the child inherits as before
        if let workingDirectory {
            guard let changeDirectory else {
                throw ChildProcessError(message: "cannot start \(executable) in \(workingDirectory): glibc < 2.29")
            }
            _ = changeDirectory(&actions, workingDirectory)  // a bad directory fails the spawn below
        }
        // A clean signal state: the test process's threads block and ignore signals, and a child (the tmux server
        // above all) would inherit that.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in envp { free(pointer) } }
            status = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            status = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        }
        guard status == 0 else { throw ChildProcessError(message: "cannot start \(executable): error \(status)") }
        return ChildProcess(pid: pid)
    }

    /// Sends `signal` (SIGTERM unless told) to the child.
    public func signal(_ signal: Int32 = SIGTERM) {
        kill(pid, signal)
    }

    /// Runs `executable` to its end with standard output and error into files of `directory`, and returns its exit
    /// status (minus the signal number when killed) and both outputs. Killed with SIGKILL after `timeout` seconds.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        outputsIn directory: String,
        timeout: TimeInterval = 60
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let name = UUID().uuidString
        let stdout = directory + "/" + name + ".out"
        let stderr = directory + "/" + name + ".err"
        let child = try spawn(executable, arguments, environment: environment, stdout: stdout, stderr: stderr)
        let status = await child.wait(timeout: timeout)
        return (
            status,
            (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "",  // absent only if the spawn's open failed
            (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""  // as above
        )
    }

    /// The exit status if the child has ended (and reaps it): the exit code, or minus the signal number.
    public func poll() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 && errno == ECHILD ? -255 : nil }
        return Self.decode(status)
    }

    /// Waits for the end (polling), killing the child with SIGKILL after `timeout` seconds.
    public func wait(timeout: TimeInterval = 60) async -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = poll() { return status }
            if Date() > deadline { kill(pid, SIGKILL) }
            try? await Task.sleep(for: .milliseconds(10))  // cancelled: poll again at once, the kill still bounds it
        }
    }

    /// Whether the child still runs (a zombie, ended but not yet reaped, does not).
    public var isRunning: Bool { kill(pid, 0) == 0 && !isZombie }

    private var isZombie: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),  // gone: reaped
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : -signal
    }
}

/// A child that could not be started (the executable is missing or not executable).
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What went wrong, naming the executable.
    public let message: String
    public var description: String { message }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not export: looked up
/// at run time, nil where the C library lacks it.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
    )
}()

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), not exported by Swift's Glibc module either: looked up at run
/// time, nil where the C library lacks it.
private let changeDirectory:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return unsafeBitCast(
            symbol,
            to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)
                .self
        )
    }()
