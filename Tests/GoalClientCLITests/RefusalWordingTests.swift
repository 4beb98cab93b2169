import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite(
    "goal-client refusals name the role that is needed and players by name (issue 16 point 9)",
    .serialized,
    .slotted
)
struct RefusalWordingTests {
    @Test("an editor deleting a player is told it needs an admin token; a viewer adding one, an editor token")
    func neededRole() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await editor.run(["players", "add", "Alice"]).status == 0)
            let delete = try await editor.run(["players", "delete", "Alice"])
            #expect(delete.status == 4, "\(delete.stderr)")
            #expect(delete.stderr.contains("the editor role may not delete player; this needs an admin token"))
            #expect(delete.stderr.contains("--role admin"))
            #expect(!delete.stderr.contains("editor token"), "\(delete.stderr)")

            let viewer = editor.with(token: daemon.tokens.viewer)
            let add = try await viewer.run(["players", "add", "Vic"])
            #expect(add.status == 4, "\(add.stderr)")
            #expect(add.stderr.contains("this needs an editor token"), "\(add.stderr)")
        }
    }

    @Test("answers name players, not ids: add, rename, delete, and the players of a scored match")
    func playersByName() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let alice = try await editor.run(["players", "add", "Alice"])
            #expect(alice.stdout.hasPrefix("added player Alice ("), "\(alice.stdout)")
            #expect(try await editor.run(["players", "add", "Bob"]).status == 0)
            let added = try await editor.run(["matches", "add", "--home", "Alice", "--away", "Bob", "--score", "1:0"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("(Alice vs Bob): committed at r3"), "\(added.stdout)")
            let renamed = try await editor.run(["players", "rename", "Bob", "Robert"])
            #expect(renamed.stdout == "renamed player Bob to Robert: committed at r4\n")
            let inUse = try await editor.with(token: daemon.tokens.admin).run(["players", "delete", "Alice"])
            #expect(inUse.status == 1)
            #expect(inUse.stderr.contains("player Alice plays in 1 match"), "\(inUse.stderr)")
        }
    }

    @Test("a rule's refusal names the player, not its id: Ada on both sides, Ada twice on one (issue 35 point 5)")
    func ruleRefusalsNamePlayers() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let added = try await editor.run(["players", "add", "Ada", "--json"])
            let ada = try #require(try jsonObject(added.stdout)["player_id"] as? String)
            #expect(try await editor.run(["players", "add", "Bea"]).status == 0)
            let both = try await editor.run(["matches", "add", "--home", "Ada", "--away", "Ada"])
            #expect(both.status == 1, "\(both.stderr)")
            #expect(
                both.stderr == "goal-client: refused (player_on_both_sides): player \"Ada\" cannot play on both sides\n"
            )
            let twice = try await editor.run(["matches", "add", "--home", "Ada", "--home", "Ada", "--away", "Bea"])
            #expect(twice.status == 1, "\(twice.stderr)")
            #expect(twice.stderr.contains("player \"Ada\" is listed twice on the home side"), "\(twice.stderr)")
            for run in [both, twice] { #expect(!run.stderr.contains(String(ada.prefix(8))), "\(run.stderr)") }
        }
    }

    @Test("nothing listening: one line that says once that it cannot connect, and where")
    func connectionFailureSaidOnce() async throws {
        let closedPort = try ClosedPort()
        defer { withExtendedLifetime(closedPort) {} }
        try await withTestDaemon { daemon in
            var client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            client.environment["GOAL_SERVER"] = "wss://localhost:\(closedPort)"
            for arguments in [["players", "list"], ["tail"]] {
                let run = try await client.run(arguments)
                #expect(run.status == 3, "\(arguments): \(run.stderr)")
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr.hasPrefix("goal-client: cannot connect to wss://localhost:\(closedPort): "))
                #expect(run.stderr.components(separatedBy: "cannot connect").count == 2, "\(run.stderr)")
                #expect(run.stderr.components(separatedBy: "localhost:\(closedPort)").count == 2, "\(run.stderr)")
                #expect(run.stderr.components(separatedBy: "goald run").count == 2, "one hint: \(run.stderr)")
            }
        }
    }
}
