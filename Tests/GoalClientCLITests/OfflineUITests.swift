import Foundation
import GoalTestSupport
import Testing

@Suite("the full-screen UI started without the server", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"))
struct OfflineUITests {
    @Test("started while goald is down, the UI shows the saved league, then goes live when goald starts")
    func startsOfflineThenGoesLive() async throws {
        try await withOfflineLeague { league in
            await league.stop()
            try await withTmux { tmux in
                try await tmux.start("ui", command: league.client.shellCommand())
                let cached = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "0 : 0", "Bob") }
                #expect(cached.held, "the saved league never showed: \(cached.screen)")
                #expect(!cached.screen.contains("live"), "\(cached.screen)")
                #expect(cached.screen.contains("r3"), "\(cached.screen)")

                try await league.restart()
                let live = try await tmux.waitFor("ui", within: 60) { $0.contains("live") }
                #expect(live.held, "the UI never went live: \(live.screen)")

                // Live for real: another client's goal arrives.
                let other = league.client.with(token: league.daemon.tokens.editor2)
                let scored = try await other.run(["matches", "score", league.match, "away"])
                #expect(scored.status == 0, "\(scored.stderr)")
                let goal = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "0 : 1", "Bob") }
                #expect(goal.held, "\(goal.screen)")
                try await tmux.send("ui", "q")
            }
        }
    }
}
