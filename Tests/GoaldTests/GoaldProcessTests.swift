import Foundation
import GoalCommandLine
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("goald as a process: --version, a port in use, a closed output (issue 16 points 9 and 10)", .slotted)
struct GoaldProcessTests {
    @Test("goald --version prints GoalRelease.version and exits 0")
    func version() async throws {
        let directory = try TemporaryDirectory()
        let run = try await GoaldExecutable.run(["--version"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == GoalRelease.version + "\n")
    }

    @Test("a port in use: exit 1 naming the port, and no state directory, certificate or token created")
    func portInUse() async throws {
        let directory = try TemporaryDirectory()
        let (listener, port) = try Self.listeningSocket()
        defer { close(listener) }
        let state = directory.file("state")
        let run = try await GoaldExecutable.run(
            ["serve", "--state-dir", state, "--port", "\(port)", "--host", "127.0.0.1"],
            in: directory
        )
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("port \(port) on 127.0.0.1 is already in use"), "\(run.stderr)")
        #expect(run.stderr.contains("--port"))
        #expect(!FileManager.default.fileExists(atPath: state), "nothing may be created before the port is known free")
    }

    @Test("goald token list into a pipe nobody reads: exit 0, nothing on stderr")
    func closedOutput() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        try SQLiteLeagueStorage(path: directory.file("state/goald.sqlite")).close()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try await GoaldExecutable.run(
            ["token", "list", "--state-dir", directory.file("state")],
            in: directory,
            standardOutput: pipe.fileHandleForWriting
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    /// A loopback TCP socket listening on a free port (the caller closes it).
    static func listeningSocket() throws -> (Int32, Int) {
        guard let socket = LoopbackSocket.make(listening: true) else {
            throw CommandTestFailure("cannot make a listening socket")
        }
        return socket
    }
}

/// A test's own setup failure.
struct CommandTestFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

@Suite("goald serve reloads its certificates on SIGHUP", .slotted)
struct ReloadSignalTests {
    @Test("SIGHUP twice: each reload is logged and the daemon keeps serving; SIGINT then stops it with exit 0")
    func sighupReloads() async throws {
        let directory = try TemporaryDirectory()
        let out = directory.file("out")
        let err = directory.file("err")
        let child = try ChildProcess.spawn(
            GoaldExecutable.url.path,
            ["serve", "--state-dir", directory.file("state"), "--port", "0", "--log-level", "info"],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stdout: out,
            stderr: err
        )
        defer { child.signal(SIGKILL) }
        func text(_ path: String) -> String {
            // Not written yet reads as empty.
            (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        try await pollUntil(
            "the banner",
            timeout: .seconds(60),
            detail: { text(err) },
            {
                text(out).contains("Connect:") || !child.isRunning
            }
        )
        for count in 1...2 {
            child.signal(SIGHUP)
            try await pollUntil(
                "reload \(count) logged",
                timeout: .seconds(30),
                detail: { text(err) },
                {
                    text(err).components(separatedBy: "goald.tls.reload_requested").count - 1 == count
                        || !child.isRunning
                }
            )
            #expect(child.isRunning, "SIGHUP must not stop goald: \(text(err))")
        }
        child.signal(SIGINT)
        #expect(await child.wait(timeout: 60) == 0, "\(text(err))")
    }
}
