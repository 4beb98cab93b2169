import ArgumentParser
import Foundation
import GoalCommandLine

/// The goal-client executable: with no subcommand the full-screen terminal UI; `players`, `matches`, `rankings`,
/// `history`, `status`, `who`, `tail`, `leagues` and `login` for people and scripts.
///
/// Exit codes (docs/RULES.md "Exit codes"): 0 ok, 1 refused, 2 usage, 3 cannot connect or TLS, 4 unauthorized,
/// 5 outcome unknown, 6 queued (server unreachable; the edit waits in the persisted outbox).
/// `main()` maps `CLIFailure` and argument errors to them; every failure prints what went wrong and what to do.
@main
struct GoalClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal-client",
        abstract: "Live terminal client of a goald league: full-screen UI, scripting subcommands and tail.",
        discussion: """
            Connection: --server (or $GOAL_SERVER), --ca-file / --fingerprint (or $GOAL_CA_FILE / \
            $GOAL_FINGERPRINT), all saved by `goal-client login` in $XDG_CONFIG_HOME/goal/config.json (mode 0600). \
            The token comes from $GOAL_TOKEN, that file, or login's prompt; never from a flag.

            Leagues: one goald may serve several leagues. Every command follows one: --league ID (or \
            $GOAL_LEAGUE, or the one saved by goal-client login --league ID), else the server's default league. \
            `goal-client leagues` lists the leagues your token may see; in the UI, l switches leagues. Each league \
            keeps its own saved state (replica, queued edits).

            Several goald nodes of one league: repeat --server (or GOAL_SERVER=wss://a:7443,wss://b:7443). Every \
            command connects to the first; when a server is down or the connection is lost it resumes on the next \
            one with what it holds (no full reload), and waits only once every server failed in a row. \
            `goal-client status` shows the server and node it reached.

            Offline: goal-client keeps the last league it saw, its queued edits and its client instance in \
            $XDG_STATE_HOME/goal-client (else ~/.local/state/goal-client). When no server answers, list commands \
            and the UI show the saved league (one "offline" line on stderr; exit 0) and edits are queued (exit 6); \
            the next run that connects sends them first, with their original ids, and reports their outcomes.

            Exit codes: 0 ok, 1 refused by the server, 2 usage, 3 cannot connect or TLS, 4 unauthorized, \
            5 outcome unknown (the mutation id is printed), 6 queued: the server is unreachable and the edit waits \
            in the saved outbox (not yet acknowledged).
            """,
        version: GoalRelease.version,
        subcommands: [
            Live.self, Players.self, Matches.self, Rankings.self, History.self, Status.self, Who.self, Tail.self,
            Leagues.self, Login.self,
        ],
        defaultSubcommand: Live.self
    )

    /// Parses, runs, and exits with the code docs/RULES.md "Exit codes" gives.
    static func main() async {
        Console.ignoreBrokenPipe()
        if let problem = ArgumentEncoding.problem() {
            Console.error("goal-client: \(problem)")
            Foundation.exit(CLIFailure.Code.usage.rawValue)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            Console.error("goal-client: \(failure.message)")
            Foundation.exit(failure.code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                let message = fullMessage(for: error)
                if !message.isEmpty { Console.out(message) }
                Foundation.exit(0)
            }
            Console.error(fullMessage(for: error))
            Foundation.exit(CLIFailure.Code.usage.rawValue)
        }
        Foundation.exit(0)
    }
}
