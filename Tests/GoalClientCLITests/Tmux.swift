import Foundation
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One private tmux server (its own socket) for a test: sessions of 80×24 running commands, keys sent with
/// `send-keys`, screens read with `capture-pane -p`. `kill()` ends the server and everything in it.
struct Tmux: Sendable {
    let socket = "goal-client-test-\(UUID().uuidString.prefix(8))"

    /// Runs tmux with `arguments` on this test's socket; returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        // Output goes to a file, never a pipe: `new-session` forks the tmux server, which would hold a pipe's
        // write end open for its whole life.
        let output = NSTemporaryDirectory() + "tmux-out-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try ChildProcess.spawn("tmux", ["-L", socket] + arguments, stdout: output)
        _ = await child.wait(timeout: 30)
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

    /// The visible screen of `name` with its colours and attributes as SGR escapes (`capture-pane -e`).
    func styledScreen(_ name: String) async throws -> String {
        try await run(["capture-pane", "-p", "-e", "-t", name])
    }

    /// Polls the styled screen (`styledScreen`) until `condition` holds or `seconds` pass.
    func waitForStyled(
        _ name: String,
        within seconds: Double = 15,
        _ condition: (String) -> Bool
    ) async throws -> (screen: String, held: Bool) {
        try await poll(within: seconds, capture: { try await styledScreen(name) }, condition)
    }

    /// Polls the screen until `condition` holds or `seconds` pass. - Returns: the last screen and whether it held.
    func waitFor(
        _ name: String,
        within seconds: Double = 15,
        _ condition: (String) -> Bool
    ) async throws -> (screen: String, held: Bool) {
        try await poll(within: seconds, capture: { try await screen(name) }, condition)
    }

    private func poll(
        within seconds: Double,
        capture: () async throws -> String,
        _ condition: (String) -> Bool
    ) async throws -> (screen: String, held: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try await capture()
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
