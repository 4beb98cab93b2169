import ArgumentParser
import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore

extension Goald {
    /// `goald migrate --from FILE --to postgres://…`: copies a SQLite league into an empty PostgreSQL database.
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a SQLite league (goald.sqlite) into an empty PostgreSQL database.",
            discussion: "Same revisions, frames, digests, exactly-once records, tokens and epoch: clients resume on "
                + "a goald using the PostgreSQL store without a snapshot. Stop the goald using the file first. The "
                + "password: GOALD_STORE_PASSWORD or store.passwordFile (never a flag). The copy is one transaction "
                + "and is checked against the source afterwards."
        )

        @OptionGroup var state: StateOptions

        @Option(help: ArgumentHelp("The SQLite database to copy (e.g. <state>/goald.sqlite).", valueName: "path"))
        var from: String

        @Option(help: ArgumentHelp("The PostgreSQL store to fill, as for --store.", valueName: "postgres-url"))
        var to: String

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            var options = state
            options.store = to
            let configuration = try await context.configuration(state: options)
            guard let target = configuration.postgres else { throw CommandFailure("--to: no PostgreSQL URL") }
            let source = ConfigurationLoader.absolutePath(from, in: context.workingDirectory)
            guard FileManager.default.fileExists(atPath: source) else {
                throw CommandFailure("--from: no database at \(source)")
            }
            let sqlite = try SQLiteLeagueStorage(path: source)
            defer { try? sqlite.close() }  // read only; nothing of the copy depends on closing it
            let league = try sqlite.recover()
            let tokens = try sqlite.tokens()
            let postgres = try PostgresLeagueStorage(configuration: target)
            defer { try? postgres.close() }  // the copy is committed or rolled back before this
            try postgres.importLeague(league, tokens: tokens) { after throws(StorageError) in
                try sqlite.backlog(after: after, upTo: league.head, limit: 2_000)
            }
            try Self.check(copy: postgres, of: sqlite, league: league)
            context.output("Copied \(source) into \(target):")
            context.output("  head revision \(league.head), digest \(league.headDigest)")
            let retained = league.oldestRetainedRevision.map { "\(league.head - $0 + 1) changesets" } ?? "no changesets"
            context.output(
                "  \(league.state.allPlayers.count) players, \(league.state.allMatches.count) matches, "
                    + "\(league.state.clientRecordCount) client instances, \(tokens.count) tokens, \(retained)"
            )
            context.output("  epoch \(league.epoch) (kept: clients resume without a snapshot)")
            context.output("Start goald with --store \(target) (the password as above).")
        }

        /// The copy must recover to the same league and hold the same log bytes.
        private static func check(
            copy: PostgresLeagueStorage,
            of source: SQLiteLeagueStorage,
            league: DurableLeague
        )
            throws
        {
            var copied = try copy.recover()
            copied.version = league.version  // a counter of the store's own writes, not part of the league
            guard copied == league else {
                throw CommandFailure("the copy does not recover to the source's league; nothing should use it")
            }
            var after = (league.oldestRetainedRevision ?? league.head + 1) - 1
            while after < league.head {
                let expected = try source.backlog(after: after, upTo: league.head, limit: 2_000)
                guard try copy.backlog(after: after, upTo: league.head, limit: 2_000) == expected,
                    let last = expected.last
                else {
                    throw CommandFailure("the copy's log differs from the source's after revision \(after)")
                }
                after = last.revision
            }
            guard try copy.tokens() == source.tokens() else { throw CommandFailure("the copy's tokens differ") }
        }
    }
}
