import Foundation

/// The built `goald` run as a child process (Foundation `Process`; this target starts no other children): exit
/// status and output, for what only the real process shows (exit codes, `--version`, the order of start-up).
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

    /// Runs goald with `arguments` in `directory` (its output files go there too), killed after `timeout` seconds.
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
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try standardOutput ?? FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { process.terminate() }
            try await Task.sleep(for: .milliseconds(20))
        }
        let status =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return Run(
            status: status,
            stdout: try String(contentsOfFile: out, encoding: .utf8),
            stderr: try String(contentsOfFile: err, encoding: .utf8)
        )
    }
}
