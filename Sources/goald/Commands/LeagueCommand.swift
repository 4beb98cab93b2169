import ArgumentParser
import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalWire

extension Goald {
    /// `goald league create|list|rename|delete`.
    struct League: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list, rename and delete leagues.",
            discussion: """
                One goald serves many leagues, each with its own players, matches, history, epoch and clients. A \
                league has an id (a slug such as office-berlin: lowercase letters, digits and single hyphens, at \
                most 40) and a display name. The league "default" always exists: it is the league of every client \
                that names none, and the one an existing state directory or database holds. On the SQLite state \
                directory every other league is its own file, <state>/leagues/<id>.sqlite. Give the daemon's \
                --state-dir (or --store).
                """,
            subcommands: [Create.self, List.self, Rename.self, Delete.self]
        )
    }
}

/// A league id typed on the command line.
enum LeagueArgument {
    /// Reads `text` as a league id.
    /// - Throws: `ValidationError` saying what a league id is.
    static func slug(_ text: String) throws -> LeagueSlug {
        do {
            return try LeagueSlug(validating: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Reads `text` as a league's display name.
    /// - Throws: `ValidationError` naming the rule it breaks.
    static func name(_ text: String) throws -> PlayerName {
        do {
            return try PlayerName(validating: text)
        } catch {
            throw ValidationError("league name \"\(text)\": \(error.description)")
        }
    }

    /// The store's league catalog.
    /// - Throws: `CommandFailure` when the store keeps no leagues.
    static func catalog(of storage: any LeagueStorage) throws -> any LeagueCatalog {
        guard let catalog = storage as? any LeagueCatalog else {
            throw CommandFailure(
                "the \(storage.kind) store keeps no league catalog, so this goald cannot manage leagues"
            )
        }
        return catalog
    }
}

extension Goald.League {
    /// `goald league create SLUG [--name NAME]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty league (works while the daemon runs).",
            discussion: "Clients follow it by naming it (goal-client --league ID); give tokens access with "
                + "`goald token create --league ID=ROLE`. A token made without --league already reaches every league."
        )

        @OptionGroup var state: StateOptions

        @Argument(
            help: ArgumentHelp(
                "The league's id: 1–40 lowercase letters a–z, digits and single hyphens (e.g. office-berlin).",
                valueName: "id"
            )
        )
        var slug: String

        @Option(help: "The display name (1–64 characters); the id when not given.")
        var name: String?

        func validate() throws {
            _ = try LeagueArgument.slug(slug)
            _ = try LeagueArgument.name(name ?? slug)
        }

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let league = LeagueInfo(
                slug: try LeagueArgument.slug(slug),
                name: try LeagueArgument.name(name ?? slug),
                created: TokenAdministration.wallClock()
            )
            let configuration = try await context.configuration(state: state)
            try StoreAccess.withStore(configuration, create: false) { storage in
                try LeagueArgument.catalog(of: storage).createLeague(league)
            }
            context.output("Created league \"\(league.slug)\" (\(league.name)).")
            context.output(
                "Clients follow it with goal-client --league \(league.slug); a token for it only: "
                    + "goald token create --name NAME --league \(league.slug)=editor"
            )
        }
    }

    /// `goald league list [--json]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the leagues, the default league first.")

        @OptionGroup var state: StateOptions

        @Flag(help: "Print a JSON array of {\"id\", \"name\", \"created\"} instead of a table.")
        var json = false

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state)
            let leagues = try StoreAccess.withStore(configuration, create: false) { storage in
                try LeagueArgument.catalog(of: storage).leagues()
            }
            if json {
                context.output(LeagueListing.json(leagues))
            } else {
                for line in LeagueListing.table(leagues) { context.output(line) }
            }
        }
    }

    /// `goald league rename SLUG NAME`.
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a league a new display name (its id, data and clients stay).",
            discussion: "The default league can be renamed too."
        )

        @OptionGroup var state: StateOptions

        @Argument(help: ArgumentHelp("The league's id.", valueName: "id"))
        var slug: String

        @Argument(help: ArgumentHelp("The new display name (1–64 characters).", valueName: "name"))
        var name: String

        func validate() throws {
            _ = try LeagueArgument.slug(slug)
            _ = try LeagueArgument.name(name)
        }

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let slug = try LeagueArgument.slug(slug)
            let name = try LeagueArgument.name(name)
            let configuration = try await context.configuration(state: state)
            let renamed = try StoreAccess.withStore(configuration, create: false) { storage in
                try LeagueArgument.catalog(of: storage).renameLeague(slug, to: name)
            }
            context.output("Renamed league \"\(renamed.slug)\" to \"\(renamed.name)\".")
        }
    }
}

/// League listing formats.
enum LeagueListing {
    static func table(_ leagues: [LeagueInfo]) -> [String] {
        let rows =
            [["ID", "NAME", "CREATED"]]
            + leagues.map { league in [league.slug.rawValue, league.name.value, TokenListing.date(league.created)] }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 2 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }
    }

    /// The leagues as an indented JSON array (GoalWire's `JSONDocument`), keys sorted, the default league first.
    static func json(_ leagues: [LeagueInfo]) -> String {
        let entries = leagues.map { league in
            JSONDocument.sortedObject([
                "id": .string(league.slug.rawValue),
                "name": .string(league.name.value),
                "created": .string(TokenListing.date(league.created)),
            ])
        }
        return JSONDocument.array(entries).indentedJSON
    }
}
