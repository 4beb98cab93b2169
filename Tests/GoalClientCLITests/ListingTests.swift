import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("goal-client players and matches alone list; an empty list says so (issue 16 point 9)", .serialized, .slotted)
struct ListingTests {
    @Test("an empty league: a sentence per list in text, [] in JSON; `players` and `matches` alone list")
    func emptyLists() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.viewer)
            let players = try await client.run(["players"])
            #expect(players.status == 0, "\(players.stderr)")
            #expect(players.stdout == "no players yet; add one with goal-client players add NAME\n")
            let matches = try await client.run(["matches"])
            #expect(matches.status == 0, "\(matches.stderr)")
            #expect(matches.stdout.hasPrefix("no matches yet; add one with goal-client matches add"))
            let rankings = try await client.run(["rankings"])
            #expect(rankings.stdout == "no players yet, so no rankings; add one with goal-client players add NAME\n")
            #expect(try await client.run(["players", "--json"]).stdout == "[]\n")
            #expect(try await client.run(["matches", "--json"]).stdout == "[]\n")
            #expect(try await client.run(["rankings", "--json"]).stdout == "[]\n")
        }
    }

    @Test("`goal-client players` and `goal-client matches` print what `list` prints")
    func defaultSubcommand() async throws {
        try await withTestDaemon { daemon in
            let client = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await client.run(["players", "add", "Alice"]).status == 0)
            #expect(try await client.run(["players", "add", "Bob"]).status == 0)
            #expect(try await client.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
            let players = try await client.run(["players"])
            #expect(players.status == 0, "\(players.stderr)")
            #expect(players.lines.count == 3)
            #expect(players.stdout == (try await client.run(["players", "list"])).stdout)
            let matches = try await client.run(["matches"])
            #expect(matches.status == 0, "\(matches.stderr)")
            #expect(matches.lines.count == 2)
            #expect(matches.lines[1].contains("Alice  0 : 0  Bob"))
            #expect(matches.stdout == (try await client.run(["matches", "list"])).stdout)
        }
    }
}
