import Foundation
import GoalTestSupport

/// The built `goald` run as a child process (GoalTestSupport's `ChildProcess`: Foundation's `Process.run()` crashed
/// while parallel tests started children): exit status and output, for what only the real process shows (exit
/// codes, `--version`, the order of start-up).
struct GoaldExecutable {
    /// The built `goald` next to the test bundle (`.build/<config>/goald`).
    static var url: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("goald").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("goald")
    }

    /// What a finished run left.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs goald with `arguments` (paths in them absolute), HOME set to `directory`, its output files there too;
    /// killed after `timeout` seconds.
    /// - Parameter standardOutput: Where standard output goes instead of a file (a pipe's write end).
    static func run(
        _ arguments: [String],
        in directory: TemporaryDirectory,
        standardOutput: FileHandle? = nil,
        timeout: TimeInterval = 60
    ) async throws -> Run {
        let name = UUID().uuidString
        let out = directory.file("\(name).out")
        let err = directory.file("\(name).err")
        // Exists even when stdout goes to `standardOutput`; a file that cannot be made fails the read below.
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let child = try ChildProcess.spawn(
            url.path,
            arguments,
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stdout: out,
            stderr: err,
            stdoutDescriptor: standardOutput?.fileDescriptor
        )
        let status = await child.wait(timeout: timeout)
        return Run(
            status: status,
            stdout: try String(contentsOfFile: out, encoding: .utf8),
            stderr: try String(contentsOfFile: err, encoding: .utf8)
        )
    }
}
