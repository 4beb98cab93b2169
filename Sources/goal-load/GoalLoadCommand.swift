import ArgumentParser
import Foundation
import GoalCommandLine
import GoalWire

/// The goal-load executable: S subscribers and W writers against a live goald, a progress line, a final report,
/// and a convergence proof by chained digest.
///
/// Thin: the options become a `LoadConfiguration`, `LoadRunner` runs it. Exit codes: 0 converged, 1 convergence
/// failed, 2 usage, 3 cannot connect or set up.
@main
struct GoalLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal-load",
        abstract: "Load a live goald with subscribers and writers; report throughput, latency and convergence.",
        discussion: """
            Example: GOAL_TOKEN=$(goald token create --state-dir DIR --name load --role editor) \
            goal-load --url wss://127.0.0.1:7443 --ca-file DIR/tls/ca.pem --preset fanout --daemon-pid PID

            Presets: fanout (1,000 subscribers, 250 commits/s), latency (1,000 subscribers, 100 commits/s), \
            contention (100 writers flat out on 4 matches), churn (500 subscribers, 20% resume every second), \
            idle (10,000 connections, no writes), catchup (one subscriber misses 100,000 changesets), many-leagues \
            (1,000 leagues × 10 subscribers = 10,000 subscribers, one writer per league, 500 commits/s in all, \
            window 4, 2 players and 2 matches per league, 20 s: sized for one 2-core machine running goald and \
            goal-load; --writers 3000 gives three per league). Flags given explicitly override the preset. goald's default limits (512 connections per IP, 2,048 per token, 200 \
            mutations/s per session) bound large runs: raise them with goald's --set.

            Several nodes of one league (one PostgreSQL database): repeat --url (--url wss://127.0.0.1:7443 \
            --url wss://127.0.0.2:7444 …). Setup runs on the first; subscriber i starts on URL i mod N (and resumes \
            on the next one if its node is lost), writer j starts on URL j mod N (likewise); at the end every node's head is \
            read, and convergence holds only when all nodes and every subscriber hold the same head digest. The \
            report has one line per URL.

            Several leagues: --leagues N spreads subscribers and writers over the leagues load-1 … load-N \
            (--league-prefix P names them P-1 … P-N): subscriber i follows league i mod N, writer j writes to \
            league j mod N, and every hello names its league. Leagues that do not exist yet are created first over \
            the HTTP API of the first URL (POST /api/v1/leagues), which takes an operator token: an admin token not \
            confined to leagues, like goald's admin-token; leagues made beforehand (goald league create) need only \
            an editor token of every league. Each league with a writer is set up on its own, convergence is proved \
            per league (its subscribers at its head with its digest), the run converges only when every league \
            does, and the report lists each league. --leagues 1 without --league-prefix is the default league, \
            named nowhere, with no HTTP call: the run as it always was. Many leagues need goald's \
            --set limits.maxConnectionsPerToken=… like any large run, and an open-file limit for one store per \
            league.
            """,
        version: GoalRelease.version
    )

    @OptionGroup var options: LoadOptions

    /// Parses and runs with SIGPIPE ignored (a closed output ends it quietly; `StandardStreams`).
    static func main() async { await mainIgnoringBrokenPipe() }

    func run() async throws {
        let configuration: LoadConfiguration
        do {
            configuration = try options.configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            StandardStreams.error("goal-load: \(error)")
            throw ExitCode(2)
        }
        let runner = LoadRunner(configuration: configuration) { line in StandardStreams.error(line) }
        let report: LoadReport
        do {
            report = try await runner.run()
        } catch {
            StandardStreams.error("goal-load: \(error)")
            throw ExitCode(error.kind == .usage ? 2 : 3)
        }
        if options.json {
            StandardStreams.out(report.document.indentedJSON)
        } else {
            StandardStreams.out(report.text)
        }
        if !report.convergence.converged { throw ExitCode(1) }
    }
}
