import Foundation
import GoalModel
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// goal-client against a real goald serving two leagues (issue 37): `--league` (and `GOAL_LEAGUE`) picks the league
/// every command follows, each league's edits stay in it, `tail --league` prints only its league's changesets,
/// `goal-client leagues` lists what the token may see, and refusals name the league.
@Suite("goal-client --league and goal-client leagues against a goald with two leagues", .serialized, .slotted)
struct LeagueCommandTests {
    private func names(_ run: ClientRun) throws -> [String] {
        try jsonArray(run.stdout).compactMap { $0["name"] as? String }.sorted()
    }

    @Test("edits go to the league named; lists, GOAL_LEAGUE and the saved login follow it; leagues lists both")
    func commandsFollowTheLeague() async throws {
        try await withTestDaemon { daemon in
            try daemon.createLeague("office")
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await editor.run(["players", "add", "Alice"]).status == 0)
            let added = try await editor.run(["players", "add", "Oscar", "--league", "office"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasSuffix("): committed at r1\n"), "office has its own revisions")

            #expect(try names(try await editor.run(["players", "list", "--json"])) == ["Alice"])
            #expect(try names(try await editor.run(["players", "list", "--json", "--league", "office"])) == ["Oscar"])
            var inOffice = editor
            inOffice.environment["GOAL_LEAGUE"] = "office"
            #expect(try names(try await inOffice.run(["players", "list", "--json"])) == ["Oscar"])
            #expect(
                try names(try await inOffice.run(["players", "list", "--json", "--league", "default"])) == ["Alice"]
            )

            let bare = editor.with(token: nil)
            let trust = [
                "--server", editor.environment["GOAL_SERVER"] ?? "", "--ca-file",
                editor.environment["GOAL_CA_FILE"] ?? "",
            ]
            let login = try await bare.run(["login", "--league", "office"] + trust, stdin: daemon.tokens.editor + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains(" in league office as editor; saved to "), "\(login.stdout)")
            #expect(try names(try await bare.run(["players", "list", "--json"])) == ["Oscar"], "the saved league")

            let leagues = try jsonObject(try await editor.run(["leagues", "--json"]).stdout)
            #expect(leagues["current"] as? String == "office", "the league the login saved")
            let listed = (leagues["leagues"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }.sorted()
            #expect(listed == ["default", "office"])
            let back = try jsonObject(try await editor.run(["leagues", "--json", "--league", "default"]).stdout)
            #expect(back["current"] as? String == "default")
            let human = try await inOffice.run(["leagues"])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.lines.contains { $0.hasPrefix("*") && $0.contains("office") }, "\(human.stdout)")
            #expect(human.lines.contains { $0.hasPrefix(" ") && $0.contains("default") }, "\(human.stdout)")
        }
    }

    @Test("an unknown league exits 2, a league the token may not see exits 4; both name it and goal-client leagues")
    func refusalsNameTheLeague() async throws {
        try await withTestDaemon { daemon in
            let office = try daemon.createLeague("office")
            let admin = try ClientEnvironment.make(daemon, token: daemon.tokens.admin)
            let unknown = try await admin.run(["players", "list", "--league", "nope"])
            #expect(unknown.status == 2, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("has no league \"nope\""), "\(unknown.stderr)")
            #expect(unknown.stderr.contains("goal-client leagues"))

            let confined = try ClientEnvironment.make(
                daemon,
                token: try daemon.createToken("homer", leagues: [office: .viewer])
            )
            let forbidden = try await confined.run(["players", "list"])
            #expect(forbidden.status == 4, "\(forbidden.stderr)")
            #expect(forbidden.stderr.contains("may not see league \"default\""), "\(forbidden.stderr)")
            #expect(forbidden.stderr.contains("goal-client leagues"))
            let mine = try jsonObject(try await confined.run(["leagues", "--json"]).stdout)
            let listed = (mine["leagues"] as? [[String: Any]] ?? []).map {
                ($0["id"] as? String, $0["role"] as? String)
            }
            #expect(listed.count == 1)
            #expect(listed.first?.0 == "office")
            #expect(listed.first?.1 == "viewer")
            #expect(try await confined.run(["players", "list", "--league", "office"]).status == 0)
        }
    }

    @Test("tail --league office prints office's changesets and none of the default league's")
    func tailFollowsItsLeague() async throws {
        try await withTestDaemon { daemon in
            try daemon.createLeague("office")
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let tail = try editor.start(["tail", "--since", "0", "--json", "--league", "office"])
            // The default league's change first: were it to reach tail, it would be its first line.
            #expect(try await editor.run(["players", "add", "Alice"]).status == 0)
            #expect(try await editor.run(["players", "add", "Oscar", "--league", "office"]).status == 0)
            let lines = await tail.waitForLines { $0.contains { $0.contains("Oscar") } }
            #expect(await tail.end(with: SIGINT) == 0)
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("Oscar") == true)
            #expect(!tail.stdout.contains("Alice"))
        }
    }
}
