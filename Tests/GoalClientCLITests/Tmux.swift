import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// tmux could not be run.
struct TmuxError: Error {
    let message: String
}

/// One private tmux server (its own socket) for a test: sessions of 80×24 running commands, keys sent with
/// `send-keys`, screens read with `capture-pane -p`. `kill()` ends the server and everything in it.
struct Tmux: Sendable {
    let socket = "goal-client-test-\(UUID().uuidString.prefix(8))"

    /// Runs tmux with `arguments` on this test's socket; returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        // posix_spawn + waitpid rather than Process: `new-session` forks the tmux server, and the output goes
        // through a file, never a pipe the server would hold open for its whole life.
        let output = NSTemporaryDirectory() + "tmux-out-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw TmuxError(message: "cannot run tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Starts a detached 80×24 session named `name` running `command` through `sh -c`.
    func start(_ name: String, command: String) async throws {
        try await run(["new-session", "-d", "-x", "80", "-y", "24", "-s", name, command])
    }

    /// Sends keys (tmux key names: "Enter", "Down", "C-c", or literal text).
    func send(_ name: String, _ keys: String...) async throws {
        try await run(["send-keys", "-t", name] + keys)
    }

    /// The visible screen of `name`.
    func screen(_ name: String) async throws -> String {
        try await run(["capture-pane", "-p", "-t", name])
    }

    /// Polls the screen until `condition` holds or `seconds` pass. - Returns: the last screen and whether it held.
    func waitFor(
        _ name: String,
        within seconds: Double = 15,
        _ condition: (String) -> Bool
    ) async throws -> (screen: String, held: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try await screen(name)
            if condition(last) { return (last, true) }
            try await Task.sleep(for: .milliseconds(30))
        }
        return (last, false)
    }

    func kill() async {
        _ = try? await run(["kill-server"])
    }

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }
}

extension ClientEnvironment {
    /// A shell command that runs goal-client (no arguments: the UI) with this environment.
    func shellCommand(_ arguments: [String] = []) -> String {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
        return (["env"] + assignments + ["TERM=xterm-256color", "'\(Self.executable.path)'"] + arguments)
            .joined(separator: " ")
    }
}

/// Runs `body` with a fresh tmux server and always kills it afterwards.
func withTmux<T>(_ body: (Tmux) async throws -> T) async throws -> T {
    let tmux = Tmux()
    do {
        let result = try await body(tmux)
        await tmux.kill()
        return result
    } catch {
        await tmux.kill()
        throw error
    }
}
