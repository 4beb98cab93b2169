import ArgumentParser
import GoalClient
import GoalCommandLine
import GoalModel
import GoalWire

/// `goal-client players list|add|rename|delete`.
struct Players: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "players",
        abstract: "List, add, rename and delete players (`goal-client players` alone lists them).",
        subcommands: [List.self, Add.self, Rename.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the players (by name).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            try await CommandSession.run(connection) { _, lookup async throws(CLIFailure) in
                if output.json {
                    Console.out(LeagueFormat.playersJSON(lookup).text)
                } else {
                    LeagueFormat.playersText(lookup).forEach(Console.out)
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a player.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The new player's name (1–64 characters, unique ignoring case).") var name: String

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let id = PlayerID()
                let ack = try await session.perform(.createPlayer(id: id, name: name), base: lookup.replica.revision)
                if output.json {
                    Console.out(LeagueFormat.ackJSON(ack, extra: [("player_id", .string(id.description))]).text)
                } else {
                    Console.out(
                        "added player \(TerminalText.escape(name)) (\(id.shortID)): \(LeagueFormat.ackText(ack))"
                    )
                }
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a player.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The player: name, short id or id.") var player: String
        @Argument(help: "The new name.") var name: String

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let found = try lookup.player(player)
                let ack = try await session.perform(
                    .renamePlayer(id: found.id, name: name),
                    base: lookup.replica.revision
                )
                if output.json {
                    Console.out(LeagueFormat.ackJSON(ack, extra: [("player_id", .string(found.id.description))]).text)
                } else {
                    Console.out(
                        "renamed player \(TerminalText.escape(found.name)) to \(TerminalText.escape(name)): "
                            + LeagueFormat.ackText(ack)
                    )
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a player (admin only; refused while a match references the player)."
        )
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The player: name, short id or id.") var player: String

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let found = try lookup.player(player)
                let ack = try await session.perform(.deletePlayer(id: found.id), base: lookup.replica.revision)
                if output.json {
                    Console.out(LeagueFormat.ackJSON(ack, extra: [("player_id", .string(found.id.description))]).text)
                } else {
                    Console.out("deleted player \(TerminalText.escape(found.name)): \(LeagueFormat.ackText(ack))")
                }
            }
        }
    }
}
