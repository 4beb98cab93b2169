import ArgumentParser
import Foundation
import GoalModel
import GoalPostgres
import GoalServer
import GoalStore

extension Goald {
    /// `goald migrate --from FILE --to postgres://…`: copies a SQLite home database (the default league, the tokens)
    /// and every league of its catalog into an empty PostgreSQL database, each league into its own schema.
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a SQLite state (goald.sqlite and its leagues) into an empty PostgreSQL database.",
            discussion: "Every league keeps its revisions, frames, digests, exactly-once records and epoch, and the "
                + "tokens their league grants: clients resume on a goald using the PostgreSQL store without a "
                + "snapshot. Stop the goald using the file first. The password: GOALD_STORE_PASSWORD or "
                + "store.passwordFile (never a flag). Each league's copy is one transaction and is checked against "
                + "its source afterwards; if one fails, drop the database and run again."
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
            let leagues = try sqlite.leagues()
            let postgres = try PostgresLeagueStorage(configuration: target)
            defer { try? postgres.close() }  // the copy is committed or rolled back before this
            guard try postgres.leagues().count == 1 else {
                throw CommandFailure("\(target) already holds leagues; migrate into an empty database")
            }
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
            for info in leagues {
                if info.slug.isDefault {
                    if info.name.value != LeagueInfo.defaultName {
                        _ = try postgres.renameLeague(.default, to: info.name)
                    }
                    continue
                }
                let copied = try Self.copyLeague(info, of: sqlite, into: postgres)
                context.output(
                    "  league \(info.slug) (\(info.name)): head revision \(copied.head), epoch \(copied.epoch) kept"
                )
            }
            context.output("Start goald with --store \(target) (the password as above).")
        }

        /// Copies one league of the SQLite catalog into a new schema of its own, and checks the copy.
        /// - Returns: The source league.
        private static func copyLeague(
            _ info: LeagueInfo,
            of sqlite: SQLiteLeagueStorage,
            into postgres: PostgresLeagueStorage
        ) throws -> DurableLeague {
            let source = try sqlite.openLeague(info.slug)
            defer { try? source.close() }  // read only; nothing of the copy depends on closing it
            let league = try source.recover()
            try postgres.createLeague(info)
            let copy = try postgres.openLeagueStore(info.slug)
            defer { try? copy.close() }  // the copy is committed or rolled back before this
            try copy.importLeague(league, tokens: []) { after throws(StorageError) in
                try source.backlog(after: after, upTo: league.head, limit: 2_000)
            }
            try check(copy: copy, of: source, league: league)
            return league
        }

        /// The copy must recover to the same league and hold the same log bytes (and the same tokens: the home
        /// database's, none in another league's).
        private static func check(
            copy: PostgresLeagueStorage,
            of source: any LeagueStorage,
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
