import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client exit codes: every failure says what went wrong and what to do", .serialized, .slotted)
struct ExitCodeTests {
    @Test("1 refused: a taken name, a player in use, an unknown match")
    func refused() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            #expect(try await client.run(["players", "add", "Bob"]).status == 0)
            let taken = try await client.run(["players", "add", "ALICE"])
            #expect(taken.status == 1)
            #expect(taken.stderr.contains("name_taken"))
            #expect(taken.stdout.isEmpty)

            #expect(try await client.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
            let admin = client.with(token: daemon.tokens.admin)
            let inUse = try await admin.run(["players", "delete", "Alice"])
            #expect(inUse.status == 1)
            #expect(inUse.stderr.contains("player_in_use"))

            let unknown = try await client.run(["matches", "delete", "00000000"])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no match \"00000000\"; goal-client matches list shows them"))
        }
    }

    @Test("2 usage: unknown subcommand, missing players, bad score, no server configured")
    func usage() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let unknown = try await client.run(["plyers", "list"])
            #expect(unknown.status == 2)
            let noAway = try await client.run(["matches", "add", "--home", "Alice"])
            #expect(noAway.status == 2)
            #expect(noAway.stderr.contains("at least one --home and one --away"))
            let badScore = try await client.run(["matches", "add", "--home", "A", "--away", "B", "--score", "three"])
            #expect(badScore.status == 2)
            var bare = client
            bare.environment["GOAL_SERVER"] = nil
            let noServer = try await bare.run(["players", "list"])
            #expect(noServer.status == 2)
            #expect(noServer.stderr.contains("no server: pass --server"))
            let help = try await client.run(["--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Exit codes"))
        }
    }

    @Test("3 cannot connect: nothing listening, and a TLS failure (wrong fingerprint)")
    func cannotConnect() async throws {
        let closedPort = try ClosedPort()
        defer { withExtendedLifetime(closedPort) {} }
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            var nowhere = client
            nowhere.environment["GOAL_SERVER"] = "wss://localhost:\(closedPort)"
            let refused = try await nowhere.run(["players", "list"])
            #expect(refused.status == 3)
            #expect(refused.stderr.contains("cannot connect to wss://localhost:\(closedPort)"))
            #expect(refused.stderr.contains("check that goald runs"))

            var pinned = client
            pinned.environment["GOAL_CA_FILE"] = nil
            let wrong = try await pinned.run(["players", "list", "--fingerprint", String(repeating: "ab", count: 32)])
            #expect(wrong.status == 3)
            #expect(wrong.stderr.contains("--fingerprint"))
        }
    }

    @Test("4 unauthorized: unknown token, no token, and a viewer that writes")
    func unauthorized() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: "gt_not-a-token")
            let bad = try await client.run(["players", "list"])
            #expect(bad.status == 4)
            #expect(bad.stderr.contains("refused the token"))
            let none = try await client.with(token: nil).run(["players", "list"])
            #expect(none.status == 4)
            #expect(none.stderr.contains("set GOAL_TOKEN or run goal-client login"))
            let viewer = try await client.with(token: daemon.tokens.viewer).run(["players", "add", "Vic"])
            #expect(viewer.status == 4)
            #expect(viewer.stderr.contains("unauthorized"))
        }
    }
}
