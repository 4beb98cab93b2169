import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client players: list, add, rename, delete against a real goald", .serialized, .slotted)
struct PlayersCommandTests {
    @Test("add (human and --json), list (human and --json), rename, delete: outputs and exit codes")
    func playersLifecycle() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)

            let added = try await editor.run(["players", "add", "Alice"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("added player Alice ("))
            #expect(added.stdout.hasSuffix("): committed at r1\n"))

            let bob = try await editor.run(["players", "add", "Bob", "--json"])
            #expect(bob.status == 0, "\(bob.stderr)")
            let ack = try jsonObject(bob.stdout)
            #expect(ack["revision"] as? Int == 2)
            #expect(ack["noop"] as? Bool == false)
            let bobID = try #require(ack["player_id"] as? String)
            #expect(bobID.count == 36)
            // The second run goes on with the saved client instance: its second mutation.
            #expect((ack["mutation_id"] as? String)?.hasSuffix("#2") == true)

            let list = try await editor.run(["players", "list"])
            #expect(list.status == 0)
            #expect(list.lines.count == 3)
            #expect(list.lines[0].hasPrefix("ID"))
            #expect(list.lines[1].hasSuffix("Alice"))
            #expect(list.lines[2] == "\(bobID.prefix(8))  Bob")

            let renamed = try await editor.run(["players", "rename", "alice", "Alicia"])
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(renamed.stdout == "renamed player Alice to Alicia: committed at r3\n")

            let json = try await editor.run(["players", "list", "--json"])
            let players = try jsonArray(json.stdout)
            #expect(players.map { $0["name"] as? String } == ["Alicia", "Bob"])
            #expect(players.map { $0["revision"] as? Int } == [3, 2])
            #expect(Set(players[0].keys) == ["id", "name", "revision"])

            let admin = editor.with(token: daemon.tokens.admin)
            let deleted = try await admin.run(["players", "delete", String(bobID.prefix(8))])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout == "deleted player Bob: committed at r4\n")

            let after = try await editor.run(["players", "list", "--json"])
            #expect(try jsonArray(after.stdout).map { $0["name"] as? String } == ["Alicia"])
        }
    }
}
