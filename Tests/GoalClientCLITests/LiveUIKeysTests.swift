import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// Issue 35 point 8: each tab's key line names what its keys do there; `?` lists every key, reconnect-now on `c`.
@Suite("the UI's key lines in tmux", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"), .slotted)
struct LiveUIKeysTests {
    static let matchesLine = " enter edit  n new  d del  +/- ←→ score  h history  r refresh  ? keys  q quit"
    static let rankingsLine = " enter player  n new match  p new player  h history  r refresh  ? keys  q quit"
    static let playersLine = " enter/e rename  p new  d del  h history  r refresh  ? keys  q quit"

    @Test("Matches, Rankings and Players each show their own key line, whole at 80 columns; ? shows c for reconnect")
    func eachTabItsOwnKeyLine() async throws {
        try await withTestDaemon { daemon in
            let admin = try ClientEnvironment.make(daemon, token: daemon.tokens.admin)
            for name in ["Ada", "Bea"] { #expect(try await admin.run(["players", "add", name]).status == 0) }
            #expect(try await admin.run(["matches", "add", "--home", "Ada", "--away", "Bea"]).status == 0)
            try await withTmux { tmux in
                try await tmux.start("a", command: admin.shellCommand())
                let matches = try await tmux.waitFor("a") { Self.lines($0).contains(Self.matchesLine) }
                #expect(matches.held, "\(matches.screen)")
                try await tmux.send("a", "2")
                let rankings = try await tmux.waitFor("a") { Self.lines($0).contains(Self.rankingsLine) }
                #expect(rankings.held, "\(rankings.screen)")
                try await tmux.send("a", "3")
                let players = try await tmux.waitFor("a") { Self.lines($0).contains(Self.playersLine) }
                #expect(players.held, "\(players.screen)")
                #expect(!players.screen.contains("+/-"), "the Matches tab's keys on Players: \(players.screen)")
                // What the line promises: enter renames the selected player.
                try await tmux.send("a", "Enter")
                let rename = try await tmux.waitFor("a") { $0.contains("Rename Ada to: Ada_") }
                #expect(rename.held, "\(rename.screen)")
                try await tmux.send("a", "Escape")
                let closed = try await tmux.waitFor("a") { Self.lines($0).contains(Self.playersLine) }
                #expect(closed.held, "\(closed.screen)")
                try await tmux.send("a", "?")
                let help = try await tmux.waitFor("a") { $0.contains("Any key closes this help.") }
                #expect(help.held, "the help is cut at 24 rows: \(help.screen)")
                #expect(Self.lines(help.screen).contains { $0.hasPrefix("  c               reconnect now") })
                #expect(Self.lines(help.screen).contains("  r               refresh the list"), "\(help.screen)")
                try await tmux.send("a", "q", "q")
            }
        }
    }

    /// The screen's lines without trailing spaces.
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }
}
