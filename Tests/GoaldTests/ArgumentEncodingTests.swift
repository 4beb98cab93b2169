import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// goald refuses a command-line argument or a `GOALD_*` variable that is not UTF-8 (a token name would otherwise be stored with U+FFFD in
/// place of what was typed); goal-load shares the check (`mainIgnoringBrokenPipe`).
@Suite("goald: arguments that are not UTF-8 are a usage error", .slotted)
struct ArgumentEncodingTests {
    @Test("goald token create --name <0xFF>: exit 64 naming the argument, no state directory made")
    func invalidTokenName() async throws {
        let directory = try TemporaryDirectory()
        let state = directory.file("state")
        // A Swift String cannot hold the byte 0xFF: the shell's printf puts it into the argument.
        let child = try ChildProcess.spawn(
            "/bin/sh",
            [
                "-c", #"exec "$0" token create --state-dir "$1" --name "x$(printf '\377')" --role viewer"#,
                GoaldExecutable.url.path, state,
            ],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stdout: directory.file("out"),
            stderr: directory.file("err")
        )
        let status = await child.wait(timeout: 60)
        let stderr = (try? String(contentsOfFile: directory.file("err"), encoding: .utf8)) ?? ""
        #expect(status == 64, "\(stderr)")
        #expect(stderr.contains("argument 6 ("), "\(stderr)")
        #expect(stderr.contains(") is not valid UTF-8; give text in UTF-8"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: state), "nothing was made")
    }

    @Test("GOALD_NODE_ID of bytes that are not UTF-8: exit 64 naming the variable")
    func invalidEnvironment() async throws {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess.spawn(
            "/bin/sh",
            [
                "-c", #"GOALD_NODE_ID="x$(printf '\377')" exec "$0" check-config --state-dir "$1""#,
                GoaldExecutable.url.path, directory.file("state"),
            ],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stdout: directory.file("out"),
            stderr: directory.file("err")
        )
        let status = await child.wait(timeout: 60)
        let stderr = (try? String(contentsOfFile: directory.file("err"), encoding: .utf8)) ?? ""
        #expect(status == 64, "\(stderr)")
        #expect(stderr.contains("environment variable GOALD_NODE_ID is not valid UTF-8"), "\(stderr)")
    }
}
