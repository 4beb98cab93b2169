import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("goal-client tail against a real goald", .serialized, .slotted)
struct TailCommandTests {
    @Test("tail --since 2 --json prints exactly the changesets after r2, then live ones; Ctrl-C exits 0")
    func sinceJSON() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob", "Carol", "Dan"] {
                #expect(try await client.run(["players", "add", name]).status == 0)
            }
            let tail = try client.start(["tail", "--since", "2", "--json"])
            let backlog = await tail.waitForLines { $0.count >= 2 }
            #expect(try backlog.map { try jsonObject($0)["revision"] as? Int } == [3, 4])
            #expect(try jsonObject(backlog[0])["type"] as? String == "changeset")

            #expect(try await client.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
            let live = await tail.waitForLines { $0.count >= 3 }
            #expect(try live.map { try jsonObject($0)["revision"] as? Int } == [3, 4, 5])
            #expect(await tail.end(with: SIGINT) == 0)
            #expect(tail.lines.count == 3, "nothing else was printed: \(tail.stdout)")
        }
    }

    @Test("human lines: revision, author, short id, the match after the change and what changed")
    func humanLines() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob", "Carol"] {
                #expect(try await client.run(["players", "add", name]).status == 0)
            }
            // --since 3: the lines do not depend on when tail's first read happens.
            let tail = try client.start(["tail", "--since", "3"])
            let added = try await client.run([
                "matches", "add", "--home", "Alice", "--home", "Bob", "--away", "Carol", "--score", "2:2", "--json",
            ])
            let short = String(try #require(try jsonObject(added.stdout)["match_id"] as? String).prefix(8))
            #expect(try await client.run(["matches", "score", short, "home"]).status == 0)
            let lines = await tail.waitForLines { $0.contains { $0.contains("(home +1)") } }
            // The time column (HH:mm:ss, 8 columns and two spaces) first; the rest in aligned columns.
            #expect(
                lines.map { String($0.dropFirst(10)) } == [
                    "r4     alice         \(short)  Alice, Bob 2 : 2 Carol  (new match)",
                    "r5     alice         \(short)  Alice, Bob 3 : 2 Carol  (home +1)",
                ],
                "\(lines)"
            )
            #expect(lines.allSatisfy { Self.isClock($0.prefix(10)) }, "\(lines)")
            #expect(await tail.end(with: SIGTERM) == 0)
        }
    }

    /// True for `HH:mm:ss` and two spaces.
    static func isClock(_ text: Substring) -> Bool {
        let shape = Array("00:00:00  ")
        let characters = Array(text)
        guard characters.count == shape.count else { return false }
        return zip(characters, shape).allSatisfy { got, want in want == "0" ? got.isASCII && got.isNumber : got == want
        }
    }

    @Test("tail --since beyond what the server can replay says so and exits 1; --allow-snapshot goes on")
    func sinceTooOld() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            let refused = try await client.run(["tail", "--since", "1000"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("cannot replay the changesets after r1000"))
            #expect(refused.stderr.contains("--allow-snapshot"))

            let tail = try client.start(["tail", "--since", "1000", "--allow-snapshot"])
            let lines = await tail.waitForLines { !$0.isEmpty }
            #expect(lines.first == "r1 snapshot: 1 players, 0 matches (history before it skipped)")
            #expect(await tail.end() == 0)
        }
    }
}
