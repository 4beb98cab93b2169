import Foundation
import GoalTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built `goal-client` run as a child process against a test daemon, with an environment of the test's
/// choosing (server, CA file, token, a private XDG_CONFIG_HOME): its exit code and output.
struct ClientRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output's lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// How tests reach one daemon with goal-client: base environment and a config directory of their own.
struct ClientEnvironment: Sendable {
    var environment: [String: String]
    let directory: String

    /// Server URL, CA file and token for `daemon`; a fresh temporary XDG_CONFIG_HOME and HOME.
    static func make(_ daemon: TestDaemon, token: String) throws -> ClientEnvironment {
        let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goal-client-tests")
        let ca = try TestCertificates.shared.write(to: directory).ca
        return ClientEnvironment(
            environment: [
                "GOAL_SERVER": "wss://localhost:\(daemon.port)",
                "GOAL_CA_FILE": ca,
                "GOAL_TOKEN": token,
                "XDG_CONFIG_HOME": directory + "/config",
                "HOME": directory,
                "PATH": "/usr/bin:/bin",
            ],
            directory: directory
        )
    }

    /// The same environment with `token` (nil: no GOAL_TOKEN at all).
    func with(token: String?) -> ClientEnvironment {
        var copy = self
        copy.environment["GOAL_TOKEN"] = token
        return copy
    }

    /// The built `goal-client` next to the test bundle (`.build/<config>/goal-client`).
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("goal-client").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("goal-client")
    }

    /// Runs goal-client to completion (killed after `timeout` seconds, which fails the run with status -9).
    func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) async throws -> ClientRun {
        let out = directory + "/out-\(UUID().uuidString)"
        var input: String?
        if let stdin {
            input = out + ".in"
            try stdin.write(toFile: out + ".in", atomically: true, encoding: .utf8)
        }
        let child = try ChildProcess.spawn(
            Self.executable.path,
            arguments,
            environment: environment,
            stdin: input,
            stdout: out,
            stderr: out + ".err"
        )
        let status = await child.wait(timeout: timeout)
        return ClientRun(
            status: status,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        )
    }

    /// Starts goal-client with standard output on `descriptor` (a pipe's write end) and returns at once; standard
    /// error goes to a file (`RunningClient.stderr`).
    func start(_ arguments: [String], stdoutDescriptor descriptor: Int32) throws -> RunningClient {
        let out = directory + "/out-\(UUID().uuidString)"
        let child = try ChildProcess.spawn(
            Self.executable.path,
            arguments,
            environment: environment,
            stderr: out + ".err",
            stdoutDescriptor: descriptor
        )
        return RunningClient(child: child, outputPath: out)
    }

    /// Starts goal-client and returns at once: for `tail`, which runs until stopped.
    func start(_ arguments: [String]) throws -> RunningClient {
        let out = directory + "/out-\(UUID().uuidString)"
        let child = try ChildProcess.spawn(
            Self.executable.path,
            arguments,
            environment: environment,
            stdout: out,
            stderr: out + ".err"
        )
        return RunningClient(child: child, outputPath: out)
    }
}

/// A goal-client still running (tail): its output so far, a signal to end it.
struct RunningClient: Sendable {
    let child: ChildProcess
    let outputPath: String

    var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? "" }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Polls standard output until `condition` holds, the process ends, or `seconds` pass; returns the lines.
    func waitForLines(within seconds: Double = 20, until condition: ([String]) -> Bool) async -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let current = lines
            if condition(current) || !child.isRunning { return current }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return lines
    }

    /// Sends `signalNumber` and waits (at most 20 s, then SIGKILL) for the exit status.
    func end(with signalNumber: Int32 = SIGINT) async -> Int32 {
        kill(child.pid, signalNumber)
        return await child.wait(timeout: 20)
    }
}
