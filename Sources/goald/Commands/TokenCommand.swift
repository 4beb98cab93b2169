import ArgumentParser
import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalWire

extension Goald {
    /// `goald token create|list|revoke`.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create, list and revoke access tokens, of every league or of some (works while the daemon runs).",
            subcommands: [Create.self, List.self, Revoke.self]
        )
    }
}

/// A role as a command-line argument.
enum RoleArgument: String, CaseIterable, ExpressibleByArgument, Sendable {
    case viewer
    case editor
    case admin

    var role: Role {
        switch self {
        case .viewer: .viewer
        case .editor: .editor
        case .admin: .admin
        }
    }
}

extension Goald.Token {
    /// `goald token create --name NAME --role ROLE [--league SLUG[=ROLE]]…`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print its secret once.",
            discussion: "On a terminal the secret is printed with instructions; otherwise only the secret is "
                + "printed, so `goald token create … > file` stores it. The token goes into the daemon's store: "
                + "give the daemon's --state-dir (or --store); a state directory without a database is refused "
                + "rather than started anew. Without --league the token reaches every league with --role (an admin "
                + "of every league is an operator: it may also create, rename and delete leagues); with --league it "
                + "reaches only the leagues named, e.g. --league office=admin --league home (home takes --role)."
        )

        @OptionGroup var state: StateOptions

        @Option(
            help: ArgumentHelp(
                "The token's unique name: 1–64 ASCII letters, digits, '-', '_', '.', '@'; it authors the "
                    + "changesets its sessions commit."
            )
        )
        var name: String

        @Option(
            help: ArgumentHelp(
                "viewer (read), editor (create and edit players and matches, delete matches) or admin (also "
                    + "delete players and manage tokens); the role in every league, or in each --league given "
                    + "without one. Needed unless every --league names its role."
            )
        )
        var role: RoleArgument?

        @Option(
            name: .customLong("league"),
            help: ArgumentHelp(
                "Confine the token to a league: ID=ROLE, or ID alone for --role (repeatable). The leagues must exist "
                    + "(goald league list).",
                valueName: "id[=role]"
            )
        )
        var leagues: [String] = []

        func validate() throws {
            do {
                _ = try TokenAdministration.validateName(name)
            } catch {
                throw ValidationError(error.description)
            }
            _ = try grants()
        }

        /// The leagues given, with the token's role in each; empty: every league.
        func grants() throws -> [LeagueSlug: Role] {
            var grants: [LeagueSlug: Role] = [:]
            for item in leagues {
                let parsed: [LeagueSlug: Role]
                do {
                    parsed = try LeagueGrantsText.parse(item, defaultRole: role?.role)
                } catch {
                    let hint = role == nil && !item.contains("=") ? " (or give --role for the leagues without one)" : ""
                    throw ValidationError("--league \(error.description)\(hint)")
                }
                for (slug, role) in parsed {
                    guard grants.updateValue(role, forKey: slug) == nil else {
                        throw ValidationError("--league \(slug) is given twice")
                    }
                }
            }
            if leagues.isEmpty && role == nil {
                throw ValidationError(
                    "Missing expected argument '--role <role>' (the token's role in every league); or confine the "
                        + "token to leagues with --league ID=ROLE"
                )
            }
            return grants
        }

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state)
            let grants = try grants()
            // Never a new database: a token in a state directory no daemon uses would be refused by the daemon.
            let created = try StoreAccess.withStore(configuration, create: false) { storage in
                if !grants.isEmpty {
                    let catalog = try LeagueArgument.catalog(of: storage)
                    for slug in grants.keys.sorted() where try catalog.league(slug) == nil {
                        throw StorageError.leagueNotFound(slug)
                    }
                }
                // `grants()` refuses no --league without --role, so the fallback role is never the token's.
                let role = role?.role ?? grants.values.max() ?? .viewer
                return try TokenAdministration(storage: storage).create(name: name, role: role, leagues: grants)
            }
            guard context.standardOutputIsTerminal else {
                context.output(created.secret.text)
                return
            }
            let server = configuration.server
            context.output("Created token \"\(created.token.name)\" (\(TokenListing.access(created.token))).")
            context.output("Its secret, shown only now (goald keeps only its SHA-256):")
            context.output("")
            context.output("    \(created.secret.text)")
            context.output("")
            context.output("Give it to the client through GOAL_TOKEN, or paste it when this asks:")
            context.output(
                "    " + ConnectInstructions.loginCommand(configuration: server, host: server.host, port: server.port)
            )
        }
    }

    /// `goald token list [--json]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tokens (never their secrets).")

        @OptionGroup var state: StateOptions

        @Flag(
            help: ArgumentHelp(
                "Print a JSON array instead of a table; \"leagues\" is {\"ID\": \"ROLE\", …} for a token confined "
                    + "to leagues, null for a token of every league."
            )
        )
        var json = false

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state)
            let tokens = try StoreAccess.withStore(configuration, create: false) { storage in
                try TokenAdministration(storage: storage).list()
            }
            if json {
                context.output(TokenListing.json(tokens))
            } else {
                for line in TokenListing.table(tokens) { context.output(line) }
            }
        }
    }

    /// `goald token revoke NAME`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a token; a running goald closes its sessions with 4403."
        )

        @OptionGroup var state: StateOptions

        @Argument(help: "The token's name.")
        var name: String

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration = try await context.configuration(state: state)
            let revocation = try StoreAccess.withStore(configuration, create: false) { storage in
                try TokenAdministration(storage: storage).revoke(name: name)
            }
            let token = revocation.token
            if revocation.wasAlreadyRevoked {
                context.output("Token \"\(token.name)\" was already revoked (\(TokenListing.date(token.revoked))).")
            } else {
                context.output(
                    "Revoked token \"\(token.name)\" (role \(token.role.rawValue)). A running goald "
                        + "closes its sessions with 4403; its name stays reserved."
                )
            }
        }
    }
}

/// Token listing formats.
enum TokenListing {
    static func table(_ tokens: [StoredToken]) -> [String] {
        guard !tokens.isEmpty else { return ["No tokens. goald makes the admin token on its first start."] }
        let rows =
            [["NAME", "ROLE", "LEAGUES", "CREATED", "STATUS", "ID"]]
            + tokens.map { token in
                [
                    token.name, token.role.rawValue, leagues(token), date(token.created),
                    token.revoked.map { "revoked " + date($0) } ?? "valid", token.id.uuidString.lowercased(),
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 5 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }
    }

    /// A token's leagues as the table shows them: `office=admin,home=viewer`, or "all leagues".
    static func leagues(_ token: StoredToken) -> String {
        token.leagues.isEmpty ? "all leagues" : LeagueGrantsText.format(token.leagues)
    }

    /// What a token may reach, for a sentence: "role admin" (every league), "only leagues home as viewer, office as
    /// admin".
    static func access(_ token: StoredToken) -> String {
        guard !token.leagues.isEmpty else { return "role \(token.role.rawValue)" }
        return "only leagues "
            + token.leagues.sorted { $0.key < $1.key }.map { "\($0.key) as \($0.value.rawValue)" }
            .joined(separator: ", ")
    }

    /// The tokens as an indented JSON array (GoalWire's `JSONDocument`), keys sorted; `revoked` is null while valid;
    /// `leagues` maps each league to the token's role there, null for a token of every league.
    static func json(_ tokens: [StoredToken]) -> String {
        let entries = tokens.map { token in
            JSONDocument.sortedObject([
                "id": .string(token.id.uuidString.lowercased()),
                "name": .string(token.name),
                "role": .string(token.role.rawValue),
                "created": .string(date(token.created)),
                "revoked": token.revoked.map { .string(date($0)) } ?? .null,
                "leagues": token.leagues.isEmpty
                    ? .null
                    : .sortedObject(
                        token.leagues.reduce(into: [:]) { $0[$1.key.rawValue] = .string($1.value.rawValue) }
                    ),
            ])
        }
        return JSONDocument.array(entries).indentedJSON
    }

    static func date(_ timestamp: Timestamp?) -> String {
        guard let timestamp else { return "-" }
        let date = Date(timeIntervalSince1970: Double(timestamp.millisecondsSince1970) / 1000)
        return date.formatted(.iso8601)
    }
}
