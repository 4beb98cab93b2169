import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// The UI's league switcher in tmux (issue 37): `l` lists the leagues the token may see, enter on another reconnects
/// to it, whose players then show (and not the first league's); the tab bar names it.
@Suite("the UI's league switcher in tmux", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"), .slotted)
struct LiveUILeagueTests {
    @Test("l lists default and office; choosing office shows office's players, not the default league's")
    func switchingLeagues() async throws {
        try await withTestDaemon { daemon in
            try daemon.createLeague("office")
            let admin = try ClientEnvironment.make(daemon, token: daemon.tokens.admin)
            #expect(try await admin.run(["players", "add", "Ada"]).status == 0)
            #expect(try await admin.run(["players", "add", "Oscar", "--league", "office"]).status == 0)
            try await withTmux { tmux in
                try await tmux.start("a", command: admin.shellCommand(["ui"]))
                let live = try await tmux.waitFor("a") { $0.contains("[LIVE]") }
                #expect(live.held, "\(live.screen)")
                try await tmux.send("a", "3")
                let first = try await tmux.waitFor("a") { $0.contains("Ada") }
                #expect(first.held, "\(first.screen)")
                try await tmux.send("a", "l")
                let list = try await tmux.waitFor("a") { $0.contains("Leagues (your role") && $0.contains("office") }
                #expect(list.held, "\(list.screen)")
                #expect(list.screen.contains("*  default"), "\(list.screen)")
                try await tmux.send("a", "j", "Enter")
                let reopened = try await tmux.waitFor("a") { $0.contains(" goal office ") && $0.contains("[LIVE]") }
                #expect(reopened.held, "\(reopened.screen)")
                try await tmux.send("a", "3")
                let switched = try await tmux.waitFor("a") { $0.contains("Oscar") }
                #expect(switched.held, "\(switched.screen)")
                #expect(!switched.screen.contains("Ada"), "\(switched.screen)")
                try await tmux.send("a", "q")
            }
        }
    }
}
