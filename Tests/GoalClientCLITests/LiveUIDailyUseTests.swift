import Foundation
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 16, points 1, 2, 4, 6, 7, 8 in the full-screen UI against a live goald: two UIs, a third client
/// (goal-client commands) changing things under the cursor, the server stopped and restarted.
@Suite(
    "the full-screen UI as a daily tool (issue 16)",
    .serialized,
    .enabled(if: Tmux.isAvailable, "needs tmux"),
    .slotted
)
struct LiveUIDailyUseTests {
    @Test("refusals, a score and a delete under the cursor, the rankings record (points 1, 2, 7, 8)")
    func changesUnderTheCursor() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let third = editor.with(token: daemon.tokens.editor2)
            for name in ["Alice", "Bob", "Cy"] {
                #expect(try await editor.run(["players", "add", name]).status == 0)
            }
            let added = try await editor.run(["matches", "add", "--home", "Alice", "--away", "Bob", "--json"])
            let matchID = try #require(try jsonObject(added.stdout)["match_id"] as? String)
            #expect(try await editor.run(["matches", "add", "--home", "Cy", "--away", "Bob"]).status == 0)
            try await withTmux { tmux in
                // Highlights last 10 minutes here: the check below is on a capture, not on how fast one is taken.
                var watching = editor.withColors
                watching.environment["GOAL_HIGHLIGHT_SECONDS"] = "600"
                try await tmux.start("a", command: watching.shellCommand())
                try await tmux.start("v", command: editor.with(token: daemon.tokens.viewer).shellCommand())
                for pane in ["a", "v"] {
                    let ready = try await tmux.waitFor(pane) {
                        LiveUITests.row($0, "Alice", "0 : 0", "Bob") && $0.contains("[LIVE]")
                    }
                    #expect(ready.held, "\(pane): \(ready.screen)")
                }
                // Newest first: Cy–Bob, Alice–Bob. A selects Alice–Bob (row 2 of 2).
                try await tmux.send("a", "End")
                let selected = try await tmux.waitFor("a") { $0.contains("2/2") }
                #expect(selected.held, "no scroll position 2/2: \(selected.screen)")

                // Point 2: a refused - (away goals below 0) and a viewer's + both say why, as the CLI does.
                try await tmux.send("a", "Right", "-")
                let refused = try await tmux.waitFor("a") { $0.contains("refused (goals_out_of_range)") }
                #expect(refused.held, "A: \(refused.screen)")
                try await tmux.send("v", "+")
                let viewer = try await tmux.waitFor("v") { $0.contains("refused (unauthorized)") }
                #expect(viewer.held, "viewer: \(viewer.screen)")

                // A third client scores on the selected match; the selection stays on it.
                let short = String(matchID.prefix(8))
                // Point 8: the selected row shows the "someone else changed this" highlight too (reverse + yellow),
                // on the capture that first shows the goal (watched while the third client runs).
                async let scoring = third.run(["matches", "score", short, "home"])
                let scored = try await tmux.waitForStyled("a") { screen in
                    screen.split(separator: "\n").contains { $0.contains("Alice") && $0.contains("1 : 0") }
                }
                #expect(try await scoring.status == 0)
                #expect(scored.held, "A never showed the goal: \(scored.screen)")
                #expect(scored.screen.contains("2/2"), "the selection moved: \(scored.screen)")
                let row = scored.screen.split(separator: "\n").first { $0.contains("Alice") && $0.contains("1 : 0") }
                #expect(
                    row?.contains("\u{1B}[7m\u{1B}[33m") == true,
                    "the selected, changed row is not highlighted: \(scored.screen)"
                )

                // Point 7: the rankings show played, won, drawn and lost beside the rating.
                try await tmux.send("v", "2")
                let rankings = try await tmux.waitFor("v") { screen in
                    screen.contains("PLAYED")
                        && Self.tokens(screen, "Alice").suffix(5) == ["10.00", "1", "1", "0", "0"]
                }
                #expect(rankings.held, "viewer rankings: \(rankings.screen)")
                #expect(rankings.screen.contains("WON") && rankings.screen.contains("DRAWN"))
                #expect(Self.tokens(rankings.screen, "Cy").suffix(5) == ["3.33", "1", "0", "1", "0"])

                // Point 1: the selected match deleted by someone else says so, instead of silently moving on.
                #expect(try await third.run(["matches", "delete", short]).status == 0)
                let deleted = try await tmux.waitFor("a") { $0.contains("Alice vs Bob was deleted by someone else") }
                #expect(deleted.held, "A: \(deleted.screen)")
                #expect(!LiveUITests.row(deleted.screen, "Alice", "1 : 0", "Bob"))

                try await tmux.send("a", "q")
                try await tmux.send("v", "q")
            }
        }
    }

    @Test("the server stopped and restarted: marker, ticking countdown, pending goal, reconnect-now key (point 4)")
    func serverStoppedAndRestarted() async throws {
        try await withTmux { tmux in
            // The tmux server starts before the daemon, so it never inherits the daemon's listening socket (which
            // would keep the port bound after the daemon stops, and the restart could not bind it).
            try await tmux.start("hold", command: "cat")
            let directory = try TestCertificates.makeTemporaryDirectory(prefix: "goal-ui-restart")
            let path = directory + "/league.sqlite"
            // A reserved port: goal-client reconnects to this address, and no other test may listen on it meanwhile.
            let reservation = try PortReservation()
            defer { withExtendedLifetime(reservation) {} }
            let first = try await TestDaemon.start(databaseAt: path, on: reservation)
            let second = RestartedDaemon()
            do {
                try await stopAndRestart(first, on: reservation, path: path, tmux: tmux, into: second)
                await second.daemon?.stop()
            } catch {
                await first.stop()
                await second.daemon?.stop()
                throw error
            }
        }
    }

    /// The body of `serverStoppedAndRestarted`: the restarted daemon goes into `second` (stopped by the caller,
    /// also when this throws).
    private func stopAndRestart(
        _ first: TestDaemon,
        on reservation: PortReservation,
        path: String,
        tmux: Tmux,
        into second: RestartedDaemon
    )
        async throws
    {
        let editor = try ClientEnvironment.make(first, token: first.tokens.editor)
        for name in ["Alice", "Bob"] {
            #expect(try await editor.run(["players", "add", name]).status == 0)
        }
        #expect(try await editor.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
        try await tmux.start("a", command: editor.withColors.shellCommand())
        let ready = try await tmux.waitFor("a") {
            LiveUITests.row($0, "Alice", "0 : 0", "Bob") && $0.contains("[LIVE]") && $0.contains("rtt")
        }
        #expect(ready.held, "\(ready.screen)")
        #expect(Self.count("rtt", in: ready.screen) == 1, "rtt shown once: \(ready.screen)")
        #expect(Self.count(" ms", in: ready.screen) <= 1, "rtt shown once: \(ready.screen)")

        await first.stop()
        // The countdown ticks: some "reconnecting in N s" and later N - 1 for the same wait.
        var seen: [Int] = []
        let ticking = try await tmux.waitFor("a", within: 30) { screen in
            guard screen.contains("[RECONNECTING]"), let seconds = Self.countdown(screen) else { return false }
            if seen.last != seconds { seen.append(seconds) }
            return zip(seen, seen.dropFirst()).contains { $0 >= 2 && $1 == $0 - 1 }
        }
        #expect(ticking.held, "no ticking countdown (seen \(seen)): \(ticking.screen)")
        #expect(ticking.screen.contains("c: reconnect now"), "\(ticking.screen)")
        // Each phase has its colour (yellow: reconnecting; green: live), beside the text marker.
        let yellow = try await tmux.waitForStyled("a") { $0.contains("\u{1B}[43m [RECONNECTING] ") }
        #expect(yellow.held, "\(yellow.screen)")
        // Stale data is dimmed: on the Rankings tab the row that is not selected (the selected one is reversed).
        try await tmux.send("a", "2")
        let dimmed = try await tmux.waitForStyled("a") { Self.isDimmed("2  Bob", in: $0) }
        #expect(dimmed.held, "the stale rows are not dimmed: \(dimmed.screen)")
        try await tmux.send("a", "1")

        // A goal while down: the score it will have, marked pending.
        try await tmux.send("a", "+")
        let pending = try await tmux.waitFor("a") {
            LiveUITests.row($0, "Alice", "1 : 0", "Bob") && $0.contains("1 pending") && $0.contains("*Alice")
        }
        #expect(pending.held, "\(pending.screen)")

        // Wait while down until the next retry is ≥ 10 s away, restart the server, and press c at once: live
        // again well before the countdown would have ended (9 s or more to spare for one TLS connection and a
        // resume, however busy the machine). r only refreshes (issue 35 point 8): the countdown goes on.
        let long = try await tmux.waitFor("a", within: 60) { (Self.countdown($0) ?? 0) >= 12 }
        #expect(long.held, "\(long.screen)")
        second.daemon = try await TestDaemon.start(databaseAt: path, on: reservation)
        try await tmux.send("a", "r")
        let counting = try await tmux.waitFor("a", within: 3) { $0.contains("[LIVE]") }
        #expect(!counting.held, "r reconnected: \(counting.screen)")
        #expect(counting.screen.contains("c reconnects now"), "\(counting.screen)")
        let left = Self.countdown(try await tmux.screen("a")) ?? 0
        try await tmux.send("a", "c")
        let live = try await tmux.waitFor("a", within: max(Double(left) - 1, 1)) { $0.contains("[LIVE]") }
        #expect(live.held, "c did not reconnect at once (\(left) s were left): \(live.screen)")
        let green = try await tmux.waitForStyled("a") { $0.contains("\u{1B}[42m [LIVE] ") }
        #expect(green.held, "\(green.screen)")
        let synced = try await tmux.waitFor("a") {
            LiveUITests.row($0, "Alice", "1 : 0", "Bob") && !$0.contains("pending")
        }
        #expect(synced.held, "the pending goal was not sent: \(synced.screen)")
        try await tmux.send("a", "q")
    }

    @Test(
        "players renamed and deleted from the Players tab; Enter opens a match; g/G, PageUp/PageDown and the position (points 6, 8)"
    )
    func playersTabAndNavigation() async throws {
        try await withTestDaemon { daemon in
            let admin = try ClientEnvironment.make(daemon, token: daemon.tokens.admin)
            for name in ["Alice", "Bob", "Zoe"] {
                #expect(try await admin.run(["players", "add", name]).status == 0)
            }
            #expect(try await admin.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
            try await withTmux { tmux in
                try await tmux.start("a", command: admin.shellCommand())
                let ready = try await tmux.waitFor("a") { LiveUITests.row($0, "Alice", "0 : 0", "Bob") }
                #expect(ready.held, "\(ready.screen)")
                // Enter opens the selected match.
                try await tmux.send("a", "Enter")
                let form = try await tmux.waitFor("a") { $0.contains("Edit Match") }
                #expect(form.held, "\(form.screen)")
                try await tmux.send("a", "Escape", "3", "G")
                let last = try await tmux.waitFor("a") { $0.contains("3/3") && $0.contains("Zoe") }
                #expect(last.held, "\(last.screen)")
                // PageUp and PageDown move by a screen (here: to the first and the last row).
                try await tmux.send("a", "PPage")
                let top = try await tmux.waitFor("a") { $0.contains("1/3") }
                #expect(top.held, "\(top.screen)")
                try await tmux.send("a", "NPage")
                let bottom = try await tmux.waitFor("a") { $0.contains("3/3") }
                #expect(bottom.held, "\(bottom.screen)")

                // Rename Zoe to Zed.
                try await tmux.send("a", "e")
                _ = try await tmux.waitFor("a") { $0.contains("Rename Zoe to: Zoe_") }
                try await tmux.send("a", "BSpace", "BSpace", "e", "d", "Enter")
                let renamed = try await tmux.waitFor("a") { $0.contains("renamed player") && $0.contains("to Zed") }
                #expect(renamed.held, "\(renamed.screen)")

                // Alice plays a match: deleting her is refused, with the server's reason.
                try await tmux.send("a", "g", "d")
                let prompt = try await tmux.waitFor("a") { $0.contains("Delete player Alice? y/n") }
                #expect(prompt.held, "\(prompt.screen)")
                try await tmux.send("a", "y")
                let refused = try await tmux.waitFor("a") { $0.contains("refused (player_in_use)") }
                #expect(refused.held, "\(refused.screen)")
                // Zed has no match: deleted.
                try await tmux.send("a", "G", "d")
                _ = try await tmux.waitFor("a") { $0.contains("Delete player Zed? y/n") }
                try await tmux.send("a", "y")
                let deleted = try await tmux.waitFor("a") { $0.contains("deleted player") && $0.contains("2/2") }
                #expect(deleted.held, "\(deleted.screen)")
                #expect(try await admin.run(["players", "list"]).stdout.contains("Zed") == false)

                // The picker of a new match adds a player on the spot and chooses it for its side.
                try await tmux.send("a", "n")
                _ = try await tmux.waitFor("a") { $0.contains("New Match") }
                try await tmux.send("a", "Enter")
                _ = try await tmux.waitFor("a") { $0.contains("a: add a player") }
                try await tmux.send("a", "a", "E", "v", "e", "Enter")
                let added = try await tmux.waitFor("a") { $0.contains("[x] Eve") }
                #expect(added.held, "the new player was not added and chosen: \(added.screen)")
                try await tmux.send("a", "Enter")
                let home = try await tmux.waitFor("a") { $0.contains("Home players  Eve") }
                #expect(home.held, "\(home.screen)")
                try await tmux.send("a", "Escape", "q")
            }
        }
    }

    @Test("Ctrl-Z suspends to the shell with the terminal restored; fg brings the UI back, redrawn (point 8)")
    func controlZSuspends() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            #expect(try await editor.run(["players", "add", "Alice"]).status == 0)
            try await withTmux { tmux in
                // An interactive shell with job control, as a person has.
                try await tmux.start("sh", command: "env -i PS1='job$ ' TERM=xterm-256color bash --norc --noprofile -i")
                _ = try await tmux.waitFor("sh") { $0.contains("job$") }
                try await tmux.send("sh", editor.shellCommand(), "Enter")
                let ready = try await tmux.waitFor("sh") { $0.contains("[LIVE]") }
                #expect(ready.held, "\(ready.screen)")
                try await tmux.send("sh", "C-z")
                let stopped = try await tmux.waitFor("sh") { $0.contains("Stopped") && !$0.contains("[LIVE]") }
                #expect(stopped.held, "the UI did not stop with the terminal restored: \(stopped.screen)")
                try await tmux.send("sh", "stty -a | grep -c -- '-icanon' ; echo canon-checked", "Enter")
                let cooked = try await tmux.waitFor("sh") { $0.contains("canon-checked") }
                #expect(cooked.held)
                #expect(!cooked.screen.contains("\n1\n"), "the shell got a raw terminal: \(cooked.screen)")
                try await tmux.send("sh", "fg", "Enter")
                let back = try await tmux.waitFor("sh") { $0.contains("[LIVE]") && $0.contains("Matches") }
                #expect(back.held, "the UI did not come back: \(back.screen)")
                try await tmux.send("sh", "q")
                let done = try await tmux.waitFor("sh") { $0.contains("job$") && !$0.contains("[LIVE]") }
                #expect(done.held, "\(done.screen)")
            }
        }
    }

    @Test("a conflict is resolved from the form: mine vs theirs, keep mine saves on the new base (point 3)")
    func conflictResolvedFromTheForm() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob"] {
                #expect(try await editor.run(["players", "add", name]).status == 0)
            }
            #expect(try await editor.run(["matches", "add", "--home", "Alice", "--away", "Bob"]).status == 0)
            try await withTmux { tmux in
                try await tmux.start("a", command: editor.shellCommand())
                try await tmux.start("b", command: editor.with(token: daemon.tokens.editor2).shellCommand())
                for pane in ["a", "b"] {
                    let ready = try await tmux.waitFor(pane) { LiveUITests.row($0, "Alice", "0 : 0", "Bob") }
                    #expect(ready.held, "\(pane): \(ready.screen)")
                    try await tmux.send(pane, "e")
                    _ = try await tmux.waitFor(pane) { $0.contains("Edit Match") }
                }
                try await tmux.send("a", "Down", "Down", "+", "s")
                let saved = try await tmux.waitFor("a") { LiveUITests.row($0, "Alice", "1 : 0", "Bob") }
                #expect(saved.held, "A: \(saved.screen)")
                try await tmux.send("b", "Down", "Down", "+", "+", "s")
                let conflict = try await tmux.waitFor("b") { screen in
                    screen.contains("THEIRS")
                        && screen.split(separator: "\n").contains {
                            $0.split(separator: " ") == ["home", "goals", "2", "1"]
                        }
                }
                #expect(conflict.held, "B shows no mine vs theirs: \(conflict.screen)")
                #expect(!conflict.screen.contains("ready to save"), "\(conflict.screen)")
                #expect(conflict.screen.contains("Someone else changed home goals"), "no banner: \(conflict.screen)")
                #expect(conflict.screen.contains("Now: home goals: 1"), "\(conflict.screen)")
                try await tmux.send("b", "k")
                let rebased = try await tmux.waitFor("b") { $0.contains("ready to save") }
                #expect(rebased.held, "\(rebased.screen)")
                try await tmux.send("b", "s")
                let mineWon = try await tmux.waitFor("a") { LiveUITests.row($0, "Alice", "2 : 0", "Bob") }
                #expect(mineWon.held, "keep mine did not save: \(mineWon.screen)")
                try await tmux.send("a", "q")
                try await tmux.send("b", "q")
            }
        }
    }

    @Test("columns use the terminal's width: a long name is cut at 80 columns and whole at 160 (point 8)")
    func columnsFollowTheWidth() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            let long = "Maximiliana Wolkenstein-Oberhausen"
            for name in [long, "Bob", "Cy"] {
                #expect(try await editor.run(["players", "add", name]).status == 0)
            }
            #expect(
                try await editor.run(["matches", "add", "--home", long, "--home", "Bob", "--away", "Cy"]).status == 0
            )
            try await withTmux { tmux in
                try await tmux.start("a", command: editor.shellCommand())
                let narrow = try await tmux.waitFor("a") { $0.contains("[LIVE]") && $0.contains("Maximiliana") }
                #expect(narrow.held, "\(narrow.screen)")
                #expect(!narrow.screen.contains(long + ", Bob"), "80 columns cannot hold both names: \(narrow.screen)")
                try await tmux.run(["resize-window", "-t", "a", "-x", "160", "-y", "24"])
                let wide = try await tmux.waitFor("a") { LiveUITests.row($0, long + ", Bob", "0 : 0", "Cy") }
                #expect(wide.held, "160 columns show the whole side: \(wide.screen)")
                try await tmux.send("a", "q")
            }
        }
    }

    /// The whitespace-separated words of the first line that contains `name`.
    static func tokens(_ screen: String, _ name: String) -> [String] {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains(name) }) else { return [] }
        return line.split(separator: " ").map(String.init)
    }

    /// N of "reconnecting in N s" on the screen.
    /// Whether `row` is drawn dim in a styled capture: tmux writes the attributes in force as one reset-and-set
    /// sequence (`ESC[0;2m`), possibly at the end of the line before, then only colour sequences.
    static func isDimmed(_ row: String, in styled: String) -> Bool {
        guard let at = styled.range(of: row) else { return false }
        let before = styled[..<at.lowerBound]
        guard let reset = before.range(of: "\u{1B}[0", options: .backwards) else { return false }
        let attributes = before[reset.lowerBound...].prefix { $0 != "m" }.split(separator: ";").dropFirst()
        return attributes.contains("2") || before[reset.lowerBound...].contains("\u{1B}[2m")
    }

    static func countdown(_ screen: String) -> Int? {
        guard let range = screen.range(of: "reconnecting in ") else { return nil }
        return Int(screen[range.upperBound...].prefix { $0.isNumber })
    }

    static func count(_ word: String, in screen: String) -> Int {
        screen.components(separatedBy: word).count - 1
    }
}

/// Where a test keeps a daemon it restarted, so cleanup finds it even when the test body throws. Used by one
/// test task at a time.
final class RestartedDaemon: @unchecked Sendable {
    var daemon: TestDaemon?
}

extension ClientEnvironment {
    /// The same environment with colours on (`NO_COLOR` empty, whatever the test runner's environment says).
    var withColors: ClientEnvironment {
        var copy = self
        copy.environment["NO_COLOR"] = ""
        return copy
    }
}
