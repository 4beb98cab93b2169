import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// `goal-client history` against a real goald (issue 20 point 5).
@Suite("goal-client history against a real goald", .serialized, .slotted)
struct HistoryCommandTests {
    @Test("a match edited by two tokens, read by a viewer: newest first, paged, --json, its date; a player by name")
    func matchAndPlayer() async throws {
        try await withTestDaemon { daemon in
            let alice = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let bob = alice.with(token: daemon.tokens.editor2)
            let vera = alice.with(token: daemon.tokens.viewer)
            for name in ["Ada", "Bea"] { #expect(try await alice.run(["players", "add", name]).status == 0) }
            let added = try await alice.run(["matches", "add", "--home", "Ada", "--away", "Bea", "--json"])
            let short = String(try #require(try jsonObject(added.stdout)["match_id"] as? String).prefix(8))
            #expect(try await bob.run(["matches", "score", short, "home"]).status == 0)  // r4
            #expect(try await bob.run(["matches", "score", short, "home"]).status == 0)  // r5
            #expect(try await alice.run(["matches", "edit", short, "--score", "3:2"]).status == 0)  // r6

            let page = try await vera.run(["history", short, "--limit", "2"])
            #expect(page.status == 0, "\(page.stderr)")
            let lines = page.lines
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.first?.hasPrefix("match \(short) (Ada vs Bea), played 20") == true, "\(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("r6 ") == true)
            #expect(
                lines.dropFirst().first?.hasSuffix(" alice  home goals 2 → 3; away goals 0 → 2") == true,
                "\(lines)"
            )
            #expect(lines.dropFirst(2).first?.hasSuffix(" bob  home goals 1 → 2") == true, "\(lines)")
            #expect(lines.last == "older: goal-client history \(short) --before 5")

            let json = try await vera.run(["history", short, "--before", "5", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let document = try jsonObject(json.stdout)
            let entries = try #require(document["entries"] as? [[String: Any]])
            #expect(entries.map { $0["revision"] as? Int } == [4, 3])
            #expect(entries.map { $0["author"] as? String } == ["bob", "alice"])
            #expect(entries.map { $0["change"] as? String } == ["updated", "created"])
            let fields = try #require(entries.first?["fields"] as? [[String: Any]])
            #expect(fields.count == 1)
            #expect(fields.first?["field"] as? String == "home_goals")
            #expect(fields.first?["before"] as? Int == 0 && fields.first?["after"] as? Int == 1)
            #expect(document["next_before"] is NSNull && document["pruned"] as? Bool == false)
            #expect(document["retained_from"] as? Int == 1)

            let ada = try await vera.run(["history", "Ada"])
            #expect(ada.status == 0, "\(ada.stderr)")
            #expect(ada.lines.first == "player Ada")
            #expect(
                ada.lines.count == 2 && ada.lines.last?.hasSuffix(" alice  created: name Ada") == true,
                "\(ada.lines)"
            )
        }
    }

    @Test("a name that is no match or player is refused before asking; an unknown id is refused by the server")
    func refusals() async throws {
        try await withTestDaemon { daemon in
            let vera = try ClientEnvironment.make(daemon, token: daemon.tokens.viewer)
            let nobody = try await vera.run(["history", "Nobody"])
            #expect(nobody.status == 1)
            #expect(nobody.stderr.contains("no match or player \"Nobody\""), "\(nobody.stderr)")
            let unknown = try await vera.run(["history", UUID().uuidString.lowercased()])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("exists or is in"), "\(unknown.stderr)")
            let usage = try await vera.run(["history", "Nobody", "--limit", "0"])
            #expect(usage.status == 2, "\(usage.stderr)")
        }
    }
}
