import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("the UI's history pane in tmux", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"), .slotted)
struct LiveUIHistoryTests {
    @Test("h opens the selected match's history with its date, follows the selection to a player, h closes it")
    func historyPane() async throws {
        try await withTestDaemon { daemon in
            let alice = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Ada", "Bea"] { #expect(try await alice.run(["players", "add", name]).status == 0) }
            let added = try await alice.run(["matches", "add", "--home", "Ada", "--away", "Bea", "--json"])
            let short = String(try #require(try jsonObject(added.stdout)["match_id"] as? String).prefix(8))
            let bob = alice.with(token: daemon.tokens.editor2)
            #expect(try await bob.run(["matches", "score", short, "home"]).status == 0)
            let vera = alice.with(token: daemon.tokens.viewer)
            try await withTmux { tmux in
                try await tmux.start("v", command: vera.shellCommand())
                let ready = try await tmux.waitFor("v") { $0.contains("1 : 0") && $0.contains("live") }
                #expect(ready.held, "\(ready.screen)")
                try await tmux.send("v", "h")
                let pane = try await tmux.waitFor("v") { screen in
                    screen.contains("History of match \(short) (Ada vs Bea)  played 20")
                        && screen.contains(" bob  home goals 0 → 1") && screen.contains(" alice  created: ")
                }
                #expect(pane.held, "\(pane.screen)")
                try await tmux.send("v", "3")
                let player = try await tmux.waitFor("v") { screen in
                    screen.contains("History of player Ada") && screen.contains(" alice  created: name Ada")
                }
                #expect(player.held, "\(player.screen)")
                try await tmux.send("v", "h")
                let closed = try await tmux.waitFor("v") { !$0.contains("History of") && $0.contains("PLAYER") }
                #expect(closed.held, "\(closed.screen)")
                try await tmux.send("v", "q")
            }
        }
    }

    @Test("match rows start with their date: a match from the snapshot through history, a new one from its changeset")
    func matchRowsShowTheirDate() async throws {
        try await withTestDaemon { daemon in
            let alice = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Ada", "Bea", "Cy"] { #expect(try await alice.run(["players", "add", name]).status == 0) }
            #expect(try await alice.run(["matches", "add", "--home", "Ada", "--away", "Bea"]).status == 0)
            let vera = alice.with(token: daemon.tokens.viewer)
            try await withTmux { tmux in
                // The UI starts empty, so the match arrives in a snapshot: its date comes from a history answer.
                try await tmux.start("v", command: vera.shellCommand())
                let dated = try await tmux.waitFor("v") { Self.datedRow($0, "Ada", "Bea") && $0.contains("live") }
                #expect(dated.held, "the snapshot match has no date: \(dated.screen)")
                #expect(dated.screen.contains(" PLAYED       HOME"), "\(dated.screen)")
                // A match created while the UI watches is dated from its changeset.
                #expect(try await alice.run(["matches", "add", "--home", "Cy", "--away", "Ada"]).status == 0)
                let new = try await tmux.waitFor("v") { Self.datedRow($0, "Cy", "Ada") }
                #expect(new.held, "the new match has no date: \(new.screen)")
                // At 80 columns the date column keeps the table aligned: the score sits under SCORE.
                let lines = new.screen.split(separator: "\n").map(String.init)
                let header = try #require(lines.first { $0.contains("SCORE") })
                let row = try #require(lines.first { $0.contains("Cy") && $0.contains("0 : 0") })
                #expect(
                    header.distance(of: "SCORE") == row.distance(of: "0 : 0"),
                    "the score is not under SCORE: \(new.screen)"
                )
                try await tmux.send("v", "q")
            }
        }
    }

    @Test(
        "the history pane pages: ] shows older entries, asking the server for the next page; [ goes back (issue 35 point 9)"
    )
    func historyPanePages() async throws {
        try await withTestDaemon { daemon in
            let alice = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Ada", "Bea"] { #expect(try await alice.run(["players", "add", name]).status == 0) }
            #expect(try await alice.run(["matches", "add", "--home", "Ada", "--away", "Bea"]).status == 0)  // r3
            try await withTmux { tmux in
                try await tmux.start("a", command: alice.shellCommand())
                let ready = try await tmux.waitFor("a") { $0.contains("0 : 0") && $0.contains("live") }
                #expect(ready.held, "\(ready.screen)")
                // Ten goals: r4 … r13, so the match has 11 entries; the pane shows 7 at a time.
                try await tmux.send("a", "+", "+", "+", "+", "+", "+", "+", "+", "+", "+")
                let scored = try await tmux.waitFor("a") { $0.contains("10 : 0") && !$0.contains("pending") }
                #expect(scored.held, "\(scored.screen)")
                try await tmux.send("a", "h")
                let first = try await tmux.waitFor("a") {
                    $0.contains("home goals 9 → 10") && $0.contains("1–7 of 7+  ] older")
                }
                #expect(first.held, "\(first.screen)")
                #expect(!first.screen.contains("created: "), "\(first.screen)")
                try await tmux.send("a", "]")
                let older = try await tmux.waitFor("a") { screen in
                    screen.contains("home goals 0 → 1") && screen.contains(" alice  created: ")
                        && screen.contains("8–11 of 11  start of the history reached  [ newer")
                }
                #expect(older.held, "\(older.screen)")
                #expect(!older.screen.contains("home goals 9 → 10"), "\(older.screen)")
                try await tmux.send("a", "[")
                let newer = try await tmux.waitFor("a") {
                    $0.contains("home goals 9 → 10") && $0.contains("1–7 of 11  ] older")
                }
                #expect(newer.held, "\(newer.screen)")
                try await tmux.send("a", "q")
            }
        }
    }

    /// Whether a row of `home` vs `away` starts with a date: `HH:MM` (today) or `YYYY-MM-DD`, then the names.
    static func datedRow(_ screen: String, _ home: String, _ away: String) -> Bool {
        screen.split(separator: "\n").contains { line in
            line.wholeMatch(of: /.?(\d\d:\d\d     |\d{4}-\d\d-\d\d)   \S*\s+0 : 0\s+\S+\s*/) != nil
                && line.contains(home) && line.contains(away)
                && line.range(of: home)!.lowerBound < line.range(of: away)!.lowerBound
        }
    }
}

extension String {
    /// Characters from the start to the first `text`, if it occurs.
    fileprivate func distance(of text: String) -> Int? {
        range(of: text).map { self.distance(from: startIndex, to: $0.lowerBound) }
    }
}
