import ArgumentParser
import Foundation
import GoalModel
import GoalServer
import GoalStore

extension Goald.League {
    /// `goald league delete SLUG [--yes]`: removes a league and all its data, after the slug is typed again (or
    /// `--yes`). On the SQLite state directory it refuses while a goald holds the directory, so no league's store is
    /// pulled from under a running daemon.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a league with all its players, matches, history and clients (stop goald first).",
            discussion: """
                Asks you to type the league's id again, or give --yes (needed when standard input is not a \
                terminal). The default league cannot be deleted. On the SQLite state directory goald must not be \
                running: delete through the running daemon instead, DELETE /api/v1/leagues/ID with an operator token \
                (an admin token of every league). With --store postgres://… goald cannot tell whether daemons serve \
                the league: while they run, use that REST call.
                """
        )

        @OptionGroup var state: StateOptions

        @Argument(help: ArgumentHelp("The id of the league to delete.", valueName: "id"))
        var slug: String

        @Flag(help: "Delete without asking to type the id again.")
        var yes = false

        func validate() throws { _ = try LeagueArgument.slug(slug) }

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let slug = try LeagueArgument.slug(slug)
            guard !slug.isDefault else { throw StorageError.defaultLeague(operation: "deleted") }
            let configuration = try await context.configuration(state: state)
            let server = configuration.server
            guard configuration.postgres == nil, FileManager.default.fileExists(atPath: server.databasePath) else {
                // PostgreSQL has no state-directory lock; a missing SQLite database is refused by StoreAccess.
                return try delete(slug, configuration, context)
            }
            let lock: StateDirectoryLock
            do {
                lock = try StateDirectoryLock.acquire(directory: server.stateDirectory)
            } catch {
                throw CommandFailure(Self.daemonRunning(slug, error))
            }
            defer { lock.release() }
            try delete(slug, configuration, context)
        }

        private func delete(
            _ slug: LeagueSlug,
            _ configuration: EffectiveConfiguration,
            _ context: CommandContext
        ) throws {
            try StoreAccess.withStore(configuration, create: false) { storage in
                let catalog = try LeagueArgument.catalog(of: storage)
                guard let league = try catalog.league(slug) else { throw StorageError.leagueNotFound(slug) }
                if !yes { try confirm(league, context) }
                try catalog.deleteLeague(slug)
            }
            context.output("Deleted league \"\(slug)\" with all its data.")
        }

        /// Asks for the slug again on a terminal; refuses without one.
        private func confirm(_ league: LeagueInfo, _ context: CommandContext) throws {
            guard context.standardInputIsTerminal else {
                throw CommandFailure(
                    "not deleted: goald league delete asks you to type the league's id again, and standard input is "
                        + "not a terminal; to delete \"\(league.slug)\" anyway, add --yes"
                )
            }
            context.output(
                "This deletes league \"\(league.slug)\" (\(league.name)) with all its players, matches, history and "
                    + "clients. It cannot be undone."
            )
            context.output("Type the league's id (\(league.slug)) to confirm:")
            let typed = context.readLine()?.trimmingCharacters(in: .whitespaces)
            guard typed == league.slug.rawValue else {
                throw CommandFailure(
                    "not deleted: you typed \"\(typed ?? "")\", not \"\(league.slug)\""
                )
            }
        }

        private static func daemonRunning(_ slug: LeagueSlug, _ error: StateDirectoryLockError) -> String {
            switch error {
            case .held(let path, let pid):
                "not deleted: a goald" + (pid.map { " (pid \($0))" } ?? "") + " is running on this state directory "
                    + "(it holds \(path)) and may have league \"\(slug)\" open. Stop goald first, or delete it through "
                    + "the running daemon: DELETE /api/v1/leagues/\(slug) with an operator token (an admin token of "
                    + "every league)"
            case .unavailable:
                "not deleted: \(error)"
            }
        }
    }
}
