import Foundation
import GoalTestSlots
import GoalTestSupport
import Testing

/// Presence in the full-screen UI (issue 20 point 3): the status line says who is online, a match someone else
/// has open in an edit form is marked, and opening it warns before a conflict can happen.
@Suite("presence in the full-screen UI", .serialized, .enabled(if: Tmux.isAvailable, "needs tmux"), .slotted)
struct PresenceUITests {
    @Test("two UIs: both online in the status line; bob edits a match, alice sees the marker and the warning")
    func whoIsOnlineAndWhoEdits() async throws {
        try await withTestDaemon { daemon in
            let alice = try ClientEnvironment.make(daemon, token: daemon.tokens.editor)
            for name in ["Ann", "Ben"] {
                #expect(try await alice.run(["players", "add", name]).status == 0)
            }
            #expect(try await alice.run(["matches", "add", "--home", "Ann", "--away", "Ben"]).status == 0)
            try await withTmux { tmux in
                try await tmux.start("a", command: alice.shellCommand())
                try await tmux.start("b", command: alice.with(token: daemon.tokens.editor2).shellCommand())
                for pane in ["a", "b"] {
                    let online = try await tmux.waitFor(pane, within: 60) { $0.contains("2 online: alice, bob") }
                    #expect(online.held, "\(pane) never showed both online: \(online.screen)")
                }
                let unmarked = try await tmux.screen("a")
                #expect(!unmarked.contains("✎"), "nobody edits yet: \(unmarked)")

                try await tmux.send("b", "e")  // bob opens the match's edit form
                _ = try await tmux.waitFor("b") { $0.contains("Edit Match") }
                let marked = try await tmux.waitFor("a", within: 60) { Self.markedRow($0) }
                #expect(marked.held, "alice never saw the marker on the match bob edits: \(marked.screen)")

                try await tmux.send("a", "e")
                let warned = try await tmux.waitFor("a", within: 60) { $0.contains("bob is editing this match") }
                #expect(warned.held, "alice's form never warned: \(warned.screen)")
                let bobWarned = try await tmux.waitFor("b", within: 60) { $0.contains("alice is editing this match") }
                #expect(bobWarned.held, "bob's form never warned: \(bobWarned.screen)")

                try await tmux.send("b", "Escape")  // bob closes the form: alice's warning goes
                let cleared = try await tmux.waitFor("a", within: 60) { !$0.contains("bob is editing this match") }
                #expect(cleared.held, "\(cleared.screen)")

                try await tmux.send("b", "q")
                let alone = try await tmux.waitFor("a", within: 60) { $0.contains("1 online: alice") }
                #expect(alone.held, "bob's leave never reached alice: \(alone.screen)")
                try await tmux.send("a", "Escape", "q")
            }
        }
    }

    /// A row of Ann vs Ben with the marker right before the home side (after the date column).
    static func markedRow(_ screen: String) -> Bool {
        screen.split(separator: "\n").contains { $0.contains(" ✎Ann") && $0.contains("Ben") }
    }
}
