import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

@Suite("the full-screen UI in tmux", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"), .slotted)
struct LiveUITests {
    @Test("two UIs on one goald: a match added and scored in one appears in the other")
    func twoUIsShareTheLeague() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob"] {
                #expect(try await editor.run(["players", "add", name]).status == 0)
            }
            try await withTmux { tmux in
                try await tmux.start("a", command: editor.shellCommand())
                try await tmux.start("b", command: editor.with(token: daemon.tokens.editor2).shellCommand())
                for pane in ["a", "b"] {
                    let ready = try await tmux.waitFor(pane) { $0.contains("No matches yet") && $0.contains("live") }
                    #expect(ready.held, "\(pane) never showed the empty league: \(ready.screen)")
                }
                // New match in A: home Alice, away Bob, saved.
                try await tmux.send("a", "n")
                _ = try await tmux.waitFor("a") { $0.contains("New Match") }
                try await tmux.send("a", "Enter")
                _ = try await tmux.waitFor("a") { $0.contains("[ ] Alice") }
                try await tmux.send("a", "Space")
                _ = try await tmux.waitFor("a") { $0.contains("[x] Alice") }
                try await tmux.send("a", "Enter", "Down", "Enter")
                _ = try await tmux.waitFor("a") { $0.contains("[-] Alice") && $0.contains("[ ] Bob") }
                try await tmux.send("a", "Down", "Space")
                _ = try await tmux.waitFor("a") { $0.contains("[x] Bob") }
                try await tmux.send("a", "Enter", "s")
                let added = try await tmux.waitFor("b") { Self.row($0, "Alice", "0 : 0", "Bob") }
                #expect(added.held, "B never showed the new match: \(added.screen)")

                // Score in A: + on the home side.
                try await tmux.send("a", "+")
                let seenByA = try await tmux.waitFor("a") { Self.row($0, "Alice", "1 : 0", "Bob") }
                #expect(seenByA.held, "A: \(seenByA.screen)")
                // Both UIs receive the same changeset from the server (how fast is a benchmark's question, not this
                // test's: under a busy parallel run it took seconds).
                let seenByB = try await tmux.waitFor("b") { Self.row($0, "Alice", "1 : 0", "Bob") }
                #expect(seenByB.held, "B never showed the goal: \(seenByB.screen)")

                try await tmux.send("b", "q")
                try await tmux.send("a", "q")
            }
        }
    }

    @Test("a delete prompt keeps its match when another client's match arrives above it (issue 14, point 7)")
    func deletePromptFollowsItsMatch() async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Alice", "Bob", "Cy", "Di"] {
                #expect(try await editor.run(["players", "add", name]).status == 0)
            }
            // Newest first: Alice–Di, Cy–Di, Alice–Bob (row 2).
            for (home, away) in [("Alice", "Bob"), ("Cy", "Di"), ("Alice", "Di")] {
                #expect(try await editor.run(["matches", "add", "--home", home, "--away", away]).status == 0)
            }
            try await withTmux { tmux in
                try await tmux.start("a", command: editor.shellCommand())
                let ready = try await tmux.waitFor("a") { Self.row($0, "Alice", "0 : 0", "Bob") && $0.contains("live") }
                #expect(ready.held, "\(ready.screen)")
                try await tmux.send("a", "Down", "Down", "d")
                let prompt = try await tmux.waitFor("a") { $0.contains("Delete Alice 0 : 0 Bob? y/n") }
                #expect(prompt.held, "\(prompt.screen)")
                // Another client's match lands at the top, above the cursor, while the prompt is open.
                let other = editor.with(token: daemon.tokens.editor2)
                #expect(try await other.run(["matches", "add", "--home", "Bob", "--away", "Cy"]).status == 0)
                let arrived = try await tmux.waitFor("a") { Self.row($0, "Bob", "0 : 0", "Cy") }
                #expect(arrived.held, "\(arrived.screen)")
                #expect(arrived.screen.contains("Delete Alice 0 : 0 Bob? y/n"), "\(arrived.screen)")
                try await tmux.send("a", "y")
                let deleted = try await tmux.waitFor("a") { !Self.row($0, "Alice", "0 : 0", "Bob") }
                #expect(deleted.held, "\(deleted.screen)")
                #expect(Self.row(deleted.screen, "Cy", "0 : 0", "Di"), "someone else's match was deleted")
                #expect(Self.row(deleted.screen, "Bob", "0 : 0", "Cy"))
                #expect(Self.row(deleted.screen, "Alice", "0 : 0", "Di"))
                try await tmux.send("a", "q")
            }
        }
    }

    @Test("q and Ctrl-C restore the terminal: stty -a is unchanged, exit code 0", arguments: ["q", "C-c"])
    func terminalRestored(key: String) async throws {
        try await withTestDaemon { daemon in
            let editor = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            try await withTmux { tmux in
                let dir = editor.directory
                try await tmux.start(
                    "ui",
                    command: "stty -a > \(dir)/before; \(editor.shellCommand()); echo $? > \(dir)/status; "
                        + "stty -a > \(dir)/after.tmp; mv \(dir)/after.tmp \(dir)/after"
                )
                // Keep the pane (and its screen) after the shell ends; the UI is still waiting for a key here.
                try await tmux.run(["set-option", "-t", "ui", "remain-on-exit", "on"])
                let ready = try await tmux.waitFor("ui") { $0.contains("Matches") && $0.contains("live") }
                #expect(ready.held, "\(ready.screen)")
                try await tmux.send("ui", key)
                let done = try await tmux.waitFor("ui") { _ in FileManager.default.fileExists(atPath: dir + "/after") }
                #expect(done.held, "\(done.screen)")
                _ = try await tmux.waitFor("ui") { _ in
                    ((try? String(contentsOfFile: dir + "/after", encoding: .utf8)) ?? "").contains("\n")
                }
                let before = try String(contentsOfFile: dir + "/before", encoding: .utf8)
                let after = try String(contentsOfFile: dir + "/after", encoding: .utf8)
                #expect(!before.isEmpty)
                #expect(before == after)
                #expect(try String(contentsOfFile: dir + "/status", encoding: .utf8) == "0\n")
                // tmux may draw the pane's last output after the shell wrote the file: wait for the screen itself.
                let left = try await tmux.waitFor("ui") { !$0.contains("No matches yet") }
                #expect(left.held, "the alternate screen was not left: \(left.screen)")
            }
        }
    }

    /// True when one screen line shows `home`, `score` and `away` in that order.
    static func row(_ screen: String, _ home: String, _ score: String, _ away: String) -> Bool {
        screen.split(separator: "\n").contains { line in
            guard let h = line.range(of: home), let s = line.range(of: score),
                let a = line.range(of: away, range: s.upperBound..<line.endIndex)
            else { return false }
            return h.upperBound <= s.lowerBound && s.upperBound <= a.lowerBound
        }
    }
}
