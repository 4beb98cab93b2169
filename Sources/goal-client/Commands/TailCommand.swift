import ArgumentParser
import Dispatch
import Foundation
import GoalClient
import GoalModel
import GoalTransport
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `goal-client tail [--since REV] [--allow-snapshot] [--json]`: follows the live stream, one line a changeset.
/// Ctrl-C (or SIGTERM) ends it cleanly with exit code 0.
struct Tail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the live stream of changesets (Ctrl-C ends it).",
        discussion: """
            Human lines look like `r42 alice  3f2a9c1e  Alice, Bob 3 : 2 Carol  (home +1)`: revision, author, \
            entity short id, the entity after the change, what changed. --json prints the server's changeset \
            message, one object a line.
            """
    )
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @Option(help: ArgumentHelp("First print every changeset after this revision.", valueName: "rev"))
    var since: Revision?
    @Flag(help: "With --since: when the server no longer keeps that history, start from a snapshot instead of exiting.")
    var allowSnapshot = false

    func run() async throws {
        let settings = try ClientSettings.resolve(connection)
        // Names for the lines: the league as it is now (one short-lived session).
        let seed = try await CommandSession.run(connection, offline: .refused) { _, lookup async throws(CLIFailure) in
            lookup.replica
        }
        var logger = Logger(label: "goal.transport")
        logger.logLevel = .critical
        let transport: WebSocketTransport
        do {
            transport = try WebSocketTransport(
                endpoints: settings.endpoints,
                security: settings.security,
                logger: logger
            )
        } catch {
            throw CLIFailure.usage("\(error.message); check --ca-file / --fingerprint")
        }
        let follower = TailFollower(
            transport: transport,
            token: settings.token,
            servers: settings.serverURLs,
            options: TailOptions(since: since, allowSnapshot: allowSnapshot, json: output.json),
            league: settings.league
        )
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { follower.stop() }
            source.resume()
            return source
        }
        let result = await follower.run(seed: seed)
        for source in sources { source.cancel() }
        try result.get()
    }
}
