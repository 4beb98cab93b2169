import Foundation
import GoalServer
import GoalTestSlots
import GoalTestSupport
import Testing

/// goal-client given several servers (issue 15 point 5): `login --server A --server B` saves the list, and every
/// command reaches the league through the first server that answers. Server A here is a port that refuses
/// connections (`ClosedPort`); server B is a live daemon named `node-b`.
@Suite("goal-client with several servers", .serialized, .slotted)
struct FailoverCommandTests {
    @Test("login --server A --server B saves both; with A down every command works through B; status names B")
    func loginSavesTheListAndCommandsFailOver() async throws {
        let refusing = try ClosedPort()
        defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
        let down = refusing.url
        let named: (inout ServerConfiguration) -> Void = { $0.nodeID = "node-b" }
        try await withTestDaemon(configure: named) { daemon in
            let base = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let up = try #require(base.environment["GOAL_SERVER"])
            let ca = try #require(base.environment["GOAL_CA_FILE"])
            var bare = base.with(token: nil)
            bare.environment["GOAL_SERVER"] = nil
            bare.environment["GOAL_CA_FILE"] = nil

            let login = try await bare.run(
                ["login", "--server", down, "--server", up, "--ca-file", ca],
                stdin: daemon.tokens.editor + "\n"
            )
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("logged in to \(down), \(up) as editor"))
            let path = base.directory + "/config/goal/config.json"
            let saved = try jsonObject(try String(contentsOfFile: path, encoding: .utf8))
            #expect(saved["servers"] as? [String] == [down, up])
            #expect(saved["server"] as? String == down, "goal-client versions that know one server read the first")

            #expect(try await bare.run(["players", "add", "Alice"]).status == 0)
            #expect(try await bare.run(["players", "add", "Bob"]).status == 0)
            let match = try await bare.run(["matches", "add", "--home", "Alice", "--away", "Bob", "--score", "1:0"])
            #expect(match.status == 0, "\(match.stderr)")
            let players = try await bare.run(["players", "list", "--json"])
            #expect(try jsonArray(players.stdout).compactMap { $0["name"] as? String }.sorted() == ["Alice", "Bob"])
            let rankings = try await bare.run(["rankings"])
            #expect(rankings.status == 0, "\(rankings.stderr)")
            #expect(rankings.stdout.contains("Alice"))

            let status = try await bare.run(["status", "--json"])
            #expect(status.status == 0, "\(status.stderr)")
            let fields = try jsonObject(status.stdout)
            #expect(fields["server"] as? String == up)
            #expect(fields["node"] as? String == "node-b")
            #expect(fields["protocol"] as? Int == 2)
            #expect(fields["servers"] as? [String] == [down, up])
            let human = try await bare.run(["status"])
            #expect(human.lines.contains { $0.hasPrefix("server") && $0.hasSuffix(up) })
            #expect(human.lines.contains { $0.hasPrefix("node") && $0.hasSuffix("node-b") })
        }
    }

    @Test("GOAL_SERVER may hold a comma-separated list; tail follows through the server that answers")
    func environmentListAndTail() async throws {
        let refusing = try ClosedPort()
        defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
        let down = refusing.url
        try await withTestDaemon { daemon in
            var client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let up = try #require(client.environment["GOAL_SERVER"])
            client.environment["GOAL_SERVER"] = "\(down), \(up)"
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            let tail = try client.start(["tail", "--since", "1", "--json"])
            #expect(try await client.run(["players", "add", "Bob"]).status == 0)
            let lines = await tail.waitForLines { $0.count >= 1 }
            #expect(try lines.map { try jsonObject($0)["revision"] as? Int } == [2])
            #expect(await tail.end(with: SIGINT) == 0)
        }
    }

    @Test("a config file written with one server (older goal-client) still works")
    func oldConfigFileIsRead() async throws {
        try await withTestDaemon { daemon in
            var client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let up = try #require(client.environment["GOAL_SERVER"])
            let ca = try #require(client.environment["GOAL_CA_FILE"])
            client.environment["GOAL_SERVER"] = nil
            client.environment["GOAL_CA_FILE"] = nil
            let directory = client.directory + "/config/goal"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try #"{"server":"\#(up)","ca_file":"\#(ca)"}"#.write(
                toFile: directory + "/config.json",
                atomically: true,
                encoding: .utf8
            )
            let status = try await client.run(["status", "--json"])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(try jsonObject(status.stdout)["servers"] as? [String] == [up])
        }
    }

    @Test("with every server down the command fails with exit code 3 and names them all")
    func everyServerDown() async throws {
        let refusingFirst = try ClosedPort()
        let refusingSecond = try ClosedPort()
        defer { withExtendedLifetime((refusingFirst, refusingSecond)) {} }  // refusing until the test ends
        let (first, second) = (refusingFirst.url, refusingSecond.url)
        try await withTestDaemon { daemon in
            var client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            client.environment["GOAL_SERVER"] = nil
            let run = try await client.run(["players", "list", "--server", first, "--server", second])
            #expect(run.status == 3)
            #expect(run.stderr.contains(first) && run.stderr.contains(second), "\(run.stderr)")
        }
    }
}

extension ClosedPort {
    /// The server URL of the port.
    var url: String { "wss://127.0.0.1:\(port)" }
}
