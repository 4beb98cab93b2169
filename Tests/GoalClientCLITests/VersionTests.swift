import Foundation
import GoalCommandLine
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("--version on goal-client and goal-load prints the one shared version (issue 16 point 9)", .slotted)
struct VersionTests {
    @Test("goal-client --version and goal-load --version print GoalRelease.version and exit 0")
    func versions() async throws {
        let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goal-version-tests")
        let folder = ClientEnvironment.executable.deletingLastPathComponent()
        for name in ["goal-client", "goal-load"] {
            let out = directory + "/\(name).out"
            let child = try ChildProcess.spawn(
                folder.appendingPathComponent(name).path,
                ["--version"],
                environment: ["PATH": "/usr/bin:/bin"],
                stdout: out,
                stderr: out + ".err"
            )
            #expect(await child.wait(timeout: 60) == 0, "\(name)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == GoalRelease.version + "\n", "\(name)")
        }
    }
}
