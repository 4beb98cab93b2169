import Foundation
import GoalModel
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client matches and rankings against a real goald", .serialized, .slotted)
struct MatchesCommandTests {
    @Test("add, list, score +1 and -1, edit, rankings and delete, with --json shapes")
    func matchLifecycle() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob", "Carol"] {
                #expect(try await client.run(["players", "add", name]).status == 0)
            }
            let added = try await client.run([
                "matches", "add", "--home", "Alice", "--home", "Bob", "--away", "Carol", "--score", "3:2", "--json",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let matchID = try #require(try jsonObject(added.stdout)["match_id"] as? String)
            let short = String(matchID.prefix(8))

            let list = try await client.run(["matches", "list"])
            #expect(list.lines.first == "ID        PLAYED  HOME        SCORE  AWAY", "\(list.lines)")
            #expect(
                list.lines.count == 2
                    && list.lines[1].wholeMatch(of: /\w{8}  \d\d:\d\d   Alice, Bob  3 : 2  Carol/) != nil
            )
            #expect(list.lines.last?.hasPrefix(short) == true, "\(list.lines)")

            let scored = try await client.run(["matches", "score", short, "home"])
            #expect(scored.status == 0, "\(scored.stderr)")
            #expect(scored.stdout == "scored match \(short) (Alice, Bob vs Carol): committed at r5\n")
            let takenBack = try await client.run(["matches", "score", short, "away", "--by", "-1"])
            #expect(takenBack.status == 0, "\(takenBack.stderr)")

            let json = try await client.run(["matches", "list", "--json"])
            let matches = try jsonArray(json.stdout)
            #expect(matches.count == 1)
            #expect(matches[0]["home_goals"] as? Int == 4)
            #expect(matches[0]["away_goals"] as? Int == 1)
            #expect(matches[0]["home_names"] as? [String] == ["Alice", "Bob"])
            #expect(matches[0]["away_names"] as? [String] == ["Carol"])
            #expect(matches[0]["revision"] as? Int == 6)
            #expect(
                Set(matches[0].keys) == [
                    "id", "home_players", "away_players", "home_names", "away_names", "home_goals", "away_goals",
                    "created_at", "created_revision", "revision",
                ]
            )

            let rankings = try jsonArray(try await client.run(["rankings", "--json"]).stdout)
            #expect(rankings.map { $0["name"] as? String } == ["Alice", "Bob", "Carol"])
            #expect(rankings.map { $0["rating"] as? Double } == [10, 10, 0])
            #expect(rankings.map { $0["rank"] as? Int } == [1, 2, 3])
            let table = try await client.run(["rankings"])
            #expect(table.lines[1] == "1  Alice    10.00       1    1      0     0")

            let edited = try await client.run(["matches", "edit", short, "--score", "0:2"])
            #expect(edited.status == 0, "\(edited.stderr)")
            let afterEdit = try jsonArray(try await client.run(["rankings", "--json"]).stdout)
            #expect(afterEdit.map { $0["name"] as? String } == ["Carol", "Alice", "Bob"])

            let deleted = try await client.run(["matches", "delete", short])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await client.run(["matches", "list", "--json"]).stdout == "[]\n")
        }
    }

    @Test(
        "matches list dates each match as the UI does (HH:MM today); --json created_at in ISO 8601 UTC, null once the log no longer reaches back (issue 35 point 6)"
    )
    func matchDates() async throws {
        // The log keeps one changeset: after the prune only the newest match's creation is in it.
        let storage = InMemoryLeagueStorage(retention: RetentionPolicy(maximumChangesets: 1, chunkSize: 1))
        try await withTestDaemon(storage: storage) { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Ada", "Bea"] { #expect(try await client.run(["players", "add", name]).status == 0) }
            let before = Date().addingTimeInterval(-1)
            #expect(try await client.run(["matches", "add", "--home", "Ada", "--away", "Bea"]).status == 0)  // r3
            #expect(try await client.run(["matches", "add", "--home", "Bea", "--away", "Ada"]).status == 0)  // r4
            let after = Date().addingTimeInterval(1)
            #expect(try storage.prune(now: Timestamp(millisecondsSince1970: 0)).oldestRetainedRevision == 4)

            let json = try await client.run(["matches", "list", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let matches = try jsonArray(json.stdout)
            #expect(matches.map { $0["created_revision"] as? Int } == [4, 3])
            let createdAt = try #require(matches.first?["created_at"] as? String, "\(json.stdout)")
            #expect(createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(createdAt)")
            let created = try #require(ISO8601DateFormatter().date(from: createdAt))
            #expect(created >= before.addingTimeInterval(-1) && created <= after, "\(createdAt)")
            #expect(matches.last?["created_at"] is NSNull, "pruned: \(json.stdout)")

            let text = try await client.run(["matches", "list"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.lines.first == "ID        PLAYED  HOME  SCORE  AWAY", "\(text.lines)")
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm"  // today, local time, as the UI's match list
            let today = formatter.string(from: created)
            #expect(text.lines.dropFirst().first?.contains("  \(today)   Bea   0 : 0  Ada") == true, "\(text.lines)")
            #expect(text.lines.last?.contains("  —       Ada   0 : 0  Bea") == true, "\(text.lines)")
        }
    }

    @Test("status reports the role, revision and league size")
    func status() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.viewer)
            let editor = client.with(token: daemon.tokens.editor)
            #expect(try await editor.run(["players", "add", "Alice"]).status == 0)
            let run = try await client.run(["status", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let status = try jsonObject(run.stdout)
            #expect(status["role"] as? String == "viewer")
            #expect(status["revision"] as? Int == 1)
            #expect(status["players"] as? Int == 1)
            #expect(status["connection"] as? String == "live")
            let human = try await client.run(["status"])
            #expect(human.lines.contains("revision    r1"))
        }
    }
}
