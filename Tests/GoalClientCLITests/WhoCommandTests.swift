import Foundation
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `goal-client who` (issue 20 point 3): who is connected and what they edit, for people and for scripts; a client
/// killed with SIGKILL is gone from the list; exit codes as every command.
@Suite("goal-client who", .serialized, .slotted)
struct WhoCommandTests {
    @Test("text and --json list every member with state, match, node and since; who itself is not listed")
    func listsMembers() async throws {
        try await withTestDaemon { daemon in
            let bob = try await TestSession.open(daemon, token: daemon.tokens.editor2, presence: .all)
            let vera = try await TestSession.open(daemon, token: daemon.tokens.viewer)  // an older client: online
            let match = MatchID()
            try await bob.announce(.editing(match))
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.viewer)

            var members: [[String: Any]] = []
            try await pollUntil("who lists them", timeout: .seconds(30)) {
                let run = try await client.run(["who", "--json"])
                #expect(run.status == 0, "\(run.stderr)")
                members = try jsonObject(run.stdout)["members"] as? [[String: Any]] ?? []
                return members.contains { $0["name"] as? String == "bob" && $0["state"] as? String == "editing" }
            }
            #expect(members.count == 2, "bob and vera; the who command observes without being listed")
            let bobs = members.first { $0["name"] as? String == "bob" }
            #expect(bobs?["match"] as? String == match.description)
            #expect(bobs?["client_instance"] as? String == bob.instance.rawValue)
            #expect((bobs?["node"] as? String)?.isEmpty == false)
            #expect((bobs?["since"] as? String)?.hasSuffix("Z") == true, "ISO 8601, UTC")
            let veras = members.first { $0["name"] as? String == "vera" }
            #expect(veras?["state"] as? String == "online")
            #expect(veras?["match"] is NSNull)

            let text = try await client.run(["who"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.lines.first?.hasPrefix("NAME") == true)
            #expect(text.lines.contains { $0.hasPrefix("bob") && $0.contains("editing") && $0.contains(match.shortID) })
            #expect(text.lines.contains { $0.hasPrefix("vera") && $0.contains("online") })
            _ = vera
        }
    }

    @Test("a goal-client killed with SIGKILL leaves the list; nobody left says so")
    func killedClientLeaves() async throws {
        try await withTestDaemon { daemon in
            let tail = try ClientEnvironment.make(daemon, token: daemon.tokens.editor).start(["tail"])  // listed
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.viewer)  // its own client state
            try await pollUntil("who lists the tail", timeout: .seconds(30)) {
                let run = try await client.run(["who", "--json"])
                let members = try jsonObject(run.stdout)["members"] as? [[String: Any]] ?? []
                return members.contains { $0["name"] as? String == "alice" }
            }
            kill(tail.child.pid, SIGKILL)
            _ = await tail.child.wait(timeout: 20)
            try await pollUntil("the killed tail leaves", timeout: .seconds(60)) {
                let run = try await client.run(["who", "--json"])
                let members = try jsonObject(run.stdout)["members"] as? [[String: Any]] ?? []
                return members.isEmpty
            }
            let text = try await client.run(["who"])
            #expect(text.stdout == "nobody is connected\n")
        }
    }

    @Test("exit codes: 4 for an unknown token, 3 when no server answers")
    func exitCodes() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: "gt_not-a-token")
            let bad = try await client.run(["who"])
            #expect(bad.status == 4)
            var nowhere = client.with(token: daemon.tokens.viewer)
            let closedPort = try ClosedPort()
            nowhere.environment["GOAL_SERVER"] = "wss://localhost:\(closedPort)"
            let down = try await nowhere.run(["who", "--json"])
            withExtendedLifetime(closedPort) {}
            #expect(down.status == 3)
            #expect(down.stdout.isEmpty)
        }
    }
}
