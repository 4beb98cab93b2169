import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// goald refuses a command-line argument or a `GOALD_*` variable that is not UTF-8 (a token name would otherwise be
/// stored with U+FFFD in place of what was typed); goal-load shares the check (`mainIgnoringBrokenPipe`).
@Suite("goald: arguments that are not UTF-8 are a usage error", .slotted)
struct ArgumentEncodingTests {
    @Test("goald token create --name <0xFF>: exit 64 naming the argument, no state directory made")
    func invalidTokenName() async throws {
        let directory = try TemporaryDirectory()
        let (status, stderr) = try await Self.goald(
            #"exec "$0" token create --state-dir "$1" --name "x$(printf '\377')" --role viewer"#,
            in: directory
        )
        #expect(status == 64, "\(stderr)")
        #expect(stderr.contains("argument 6 ("), "\(stderr)")
        #expect(stderr.contains(") is not valid UTF-8; give text in UTF-8"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state")), "nothing was made")
    }

    @Test("GOALD_NODE_ID of bytes that are not UTF-8: exit 64 naming the variable")
    func invalidEnvironment() async throws {
        let directory = try TemporaryDirectory()
        let (status, stderr) = try await Self.goald(
            #"GOALD_NODE_ID="x$(printf '\377')" exec "$0" check-config --state-dir "$1""#,
            in: directory
        )
        #expect(status == 64, "\(stderr)")
        #expect(stderr.contains("environment variable GOALD_NODE_ID is not valid UTF-8"), "\(stderr)")
    }

    /// Runs `script` in `/bin/sh` with `$0` the built goald and `$1` a state directory in `directory`: a Swift
    /// String cannot hold the byte 0xFF, so the shell's printf puts it into the argument or variable.
    private static func goald(_ script: String, in directory: TemporaryDirectory) async throws -> (Int32, String) {
        let child = try ChildProcess.spawn(
            "/bin/sh",
            ["-c", script, GoaldExecutable.url.path, directory.file("state")],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stdout: directory.file("out"),
            stderr: directory.file("err")
        )
        let status = await child.wait(timeout: 60)
        // A missing file reads as empty: the process wrote nothing there.
        return (status, (try? String(contentsOfFile: directory.file("err"), encoding: .utf8)) ?? "")
    }
}
