import Foundation
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(
    "the full-screen UI started without the server",
    .serialized,
    .enabled(if: Tmux.isAvailable, "needs tmux"),
    .slotted
)
struct OfflineUITests {
    @Test("started while goald is down, the UI shows the saved league, then goes live when goald starts")
    func startsOfflineThenGoesLive() async throws {
        try await withOfflineLeague { league in
            await league.stop()
            try await withTmux { tmux in
                try await tmux.start("ui", command: league.client.shellCommand())
                let cached = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "0 : 0", "Bob") }
                #expect(cached.held, "the saved league never showed: \(cached.screen)")
                #expect(!cached.screen.contains("[LIVE]"), "\(cached.screen)")
                #expect(cached.screen.contains("r3"), "\(cached.screen)")

                try await league.restart()
                let live = try await tmux.waitFor("ui", within: 60) { $0.contains("[LIVE]") }
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

    @Test("a goal scored in the UI while goald is down survives kill -9 and is sent once by the next run")
    func queuedInUISurvivesKill() async throws {
        try await withOfflineLeague { league in
            await league.stop()
            try await withTmux { tmux in
                try await tmux.start("ui", command: league.client.shellCommand())
                let cached = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "0 : 0", "Bob") }
                #expect(cached.held, "\(cached.screen)")
                try await tmux.send("ui", "+")
                let pending = try await tmux.waitFor("ui") { $0.contains("1 pending") }
                #expect(pending.held, "the goal was never queued: \(pending.screen)")
                let pid = try #require(try await Self.clientPID(tmux, pane: "ui"), "no goal-client in the pane")
                #expect(kill(pid, SIGKILL) == 0)
                try await league.restart()
                let next = try await league.client.run(["matches", "list"])
                #expect(next.status == 0, "\(next.stderr)")
                #expect(
                    next.stderr.contains("score home +1, match \(league.match) (Alice vs Bob)): committed at r4"),
                    "\(next.stderr)"
                )
                #expect(next.lines.last?.contains("1 : 0") == true, "\(next.stdout)")
                let again = try await league.client.run(["matches", "list"])
                #expect(again.stderr.isEmpty, "\(again.stderr)")
                #expect(try league.daemon.storage.recover().head == 4, "applied exactly once")
            }
        }
    }

    @Test("the UI and a script at once on one login use two client instances; neither replaces the other")
    func concurrentProcessesUseTwoInstances() async throws {
        try await withOfflineLeague { league in
            try await withTmux { tmux in
                // The setup's commands used slot 0's instance; the UI takes slot 0 again.
                try await tmux.start("ui", command: league.client.shellCommand())
                let ready = try await tmux.waitFor("ui") {
                    LiveUITests.row($0, "Alice", "0 : 0", "Bob") && $0.contains("live")
                }
                #expect(ready.held, "\(ready.screen)")
                // A script while the UI runs: slot 1, its own instance (a second client record).
                let scored = try await league.client.run(["matches", "score", league.match, "away"])
                #expect(scored.status == 0, "\(scored.stderr)")
                let seen = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "0 : 1", "Bob") }
                #expect(seen.held, "\(seen.screen)")
                try await league.daemon.waitForMetric("goald_client_records", atLeast: 2)
                // The UI was not replaced (4409): it still scores, as slot 0's instance.
                try await tmux.send("ui", "+")
                let own = try await tmux.waitFor("ui") { LiveUITests.row($0, "Alice", "1 : 1", "Bob") }
                #expect(own.held, "\(own.screen)")
                #expect(own.screen.contains("live"), "\(own.screen)")
                try await tmux.send("ui", "q")
                #expect(league.daemon.metric("goald_client_records") == 2, "one instance per concurrent process")
            }
        }
    }

    /// The pid of the goal-client running in `pane`: the pane's process, or its child (when the shell forked).
    static func clientPID(_ tmux: Tmux, pane: String) async throws -> pid_t? {
        let text = try await tmux.run(["display-message", "-p", "-t", pane, "#{pane_pid}"])
        guard let shell = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        var candidates = [shell]
        let children = "/proc/\(shell)/task/\(shell)/children"
        if let list = try? String(contentsOfFile: children, encoding: .utf8) {  // nil: no children listed
            candidates += list.split(separator: " ").compactMap { pid_t($0) }
        }
        return candidates.first { pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""  // "": gone
            return comm.hasPrefix("goal-client")
        }
    }
}
