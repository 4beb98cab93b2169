import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client login", .serialized, .slotted)
struct LoginCommandTests {
    @Test("login reads the token from stdin, checks it, saves config.json with mode 0600; later commands use it")
    func loginSavesConfig() async throws {
        try await withTestDaemon { daemon in
            let base = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let server = base.environment["GOAL_SERVER"]!
            let ca = base.environment["GOAL_CA_FILE"]!
            var bare = base.with(token: nil)
            bare.environment["GOAL_SERVER"] = nil
            bare.environment["GOAL_CA_FILE"] = nil

            let refused = try await bare.run(["login", "--server", server, "--ca-file", ca], stdin: "gt_wrong\n")
            #expect(refused.status == 4)
            let path = base.directory + "/config/goal/config.json"
            #expect(!FileManager.default.fileExists(atPath: path))

            let login = try await bare.run(
                ["login", "--server", server, "--ca-file", ca],
                stdin: daemon.tokens.editor + "\n"
            )
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("as editor; saved to \(path) (mode 0600)"))
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let saved = try String(contentsOfFile: path, encoding: .utf8)
            #expect(saved.contains(daemon.tokens.editor))

            let added = try await bare.run(["players", "add", "Alice"])
            #expect(added.status == 0, "\(added.stderr)")
            let empty = try await bare.run(["login", "--server", server], stdin: "")
            #expect(empty.status == 2)
            #expect(empty.stderr.contains("no token given"))
        }
    }
}
