import ArgumentParser
import Foundation
import GoalClient
import GoalCommandLine
import GoalModel
import GoalWire

/// `goal-client matches list|add|edit|score|delete`. Matches are named by their 8-hex short id (or more of it).
struct Matches: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matches",
        abstract: "List, add, edit, score and delete matches (`goal-client matches` alone lists them).",
        subcommands: [List.self, Add.self, Edit.self, Score.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the matches (newest first) with their dates (HH:MM today, else YYYY-MM-DD)."
        )
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let dates = await session.matchDates(for: lookup.sortedMatches)
                if output.json {
                    Console.out(LeagueFormat.matchesJSON(lookup, dates: dates).text)
                } else {
                    LeagueFormat.matchesText(lookup, dates: dates).forEach(Console.out)
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a match: goal-client matches add --home Alice --home Bob --away Carol --score 3:2"
        )
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Option(help: ArgumentHelp("A home player (name, short id or id); repeat for more.", valueName: "player"))
        var home: [String] = []
        @Option(help: ArgumentHelp("An away player; repeat for more.", valueName: "player"))
        var away: [String] = []
        // Unconditional: `--score -1:2` is a value, not an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("Home and away goals, e.g. 3:2.", valueName: "h:a"))
        var score: Score.Pair = Score.Pair(home: 0, away: 0)

        func validate() throws {
            guard !home.isEmpty, !away.isEmpty else {
                throw ValidationError("a match needs at least one --home and one --away player")
            }
        }

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let homeIDs = try home.map { (name) throws(CLIFailure) in try lookup.player(name).id }
                let awayIDs = try away.map { (name) throws(CLIFailure) in try lookup.player(name).id }
                let id = MatchID()
                let ack = try await session.perform(
                    .createMatch(
                        id: id,
                        homePlayers: homeIDs,
                        awayPlayers: awayIDs,
                        homeGoals: score.home,
                        awayGoals: score.away
                    ),
                    base: lookup.replica.revision
                )
                if output.json {
                    Console.out(LeagueFormat.ackJSON(ack, extra: [("match_id", .string(id.description))]).text)
                } else {
                    let home = LeagueFormat.side(homeIDs, lookup)
                    let away = LeagueFormat.side(awayIDs, lookup)
                    Console.out("added match \(id.shortID) (\(home) vs \(away)): \(LeagueFormat.ackText(ack))")
                }
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a match's players or score; only the fields given are written."
        )
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The match's short id.") var match: String
        @Option(help: ArgumentHelp("Replace the home players (repeat for more).", valueName: "player"))
        var home: [String] = []
        @Option(help: ArgumentHelp("Replace the away players (repeat for more).", valueName: "player"))
        var away: [String] = []
        @Option(parsing: .unconditional, help: ArgumentHelp("Set home and away goals, e.g. 3:2.", valueName: "h:a"))
        var score: Score.Pair?

        func validate() throws {
            guard !home.isEmpty || !away.isEmpty || score != nil else {
                throw ValidationError("nothing to change: give --home, --away or --score")
            }
        }

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let found = try lookup.match(match)
                var update = MatchUpdate()
                if !home.isEmpty {
                    update.homePlayers = try home.map { (name) throws(CLIFailure) in try lookup.player(name).id }
                }
                if !away.isEmpty {
                    update.awayPlayers = try away.map { (name) throws(CLIFailure) in try lookup.player(name).id }
                }
                if let score {
                    update.homeGoals = score.home
                    update.awayGoals = score.away
                }
                let ack = try await session.perform(.updateMatch(id: found.id, update), base: lookup.replica.revision)
                Matches.report(ack, match: found, lookup: lookup, verb: "edited", json: output.json)
            }
        }
    }

    struct Score: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Add or take goals (live scoring): goal-client matches score 3f2a9c1e home; --by -1 takes one back."
        )

        /// `h:a` goals. Negative numbers parse (`-1:2`): the server refuses them with its own message.
        struct Pair: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
            var home: Int
            var away: Int

            init(home: Int, away: Int) {
                self.home = home
                self.away = away
            }

            init?(argument: String) {
                let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let home = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                    let away = Int(parts[1].trimmingCharacters(in: .whitespaces))
                else { return nil }
                self.init(home: home, away: away)
            }

            /// `3:2`, as it is typed.
            var description: String { "\(home):\(away)" }

            /// What `--help` shows as the default: `0:0`.
            var defaultValueDescription: String { description }
        }

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The match's short id.") var match: String
        @Argument(help: "home or away.") var side: SideArgument
        @Option(parsing: .unconditional, help: "Goals to add (negative to take back).") var by: Int = 1

        func validate() throws {
            guard by != 0 else { throw ValidationError("--by 0 changes nothing") }
        }

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let found = try lookup.match(match)
                let ack = try await session.perform(
                    .adjustGoals(id: found.id, side: side.side, delta: by),
                    base: lookup.replica.revision
                )
                Matches.report(ack, match: found, lookup: lookup, verb: "scored", json: output.json)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a match.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The match's short id.") var match: String

        func run() async throws {
            try await CommandSession.run(connection) { session, lookup async throws(CLIFailure) in
                let found = try lookup.match(match)
                let ack = try await session.perform(.deleteMatch(id: found.id), base: lookup.replica.revision)
                Matches.report(ack, match: found, lookup: lookup, verb: "deleted", json: output.json)
            }
        }
    }

    /// Prints the answer to a change of `match` (as it was before the change; its players name it).
    static func report(_ ack: MutationAck, match: Match, lookup: LeagueLookup, verb: String, json: Bool) {
        if json {
            Console.out(LeagueFormat.ackJSON(ack, extra: [("match_id", .string(match.id.description))]).text)
        } else {
            Console.out("\(verb) match \(LeagueFormat.matchLabel(match, lookup)): \(LeagueFormat.ackText(ack))")
        }
    }
}

/// `home` or `away` on the command line.
struct SideArgument: ExpressibleByArgument, Sendable {
    var side: Side

    init?(argument: String) {
        guard let side = Side(rawValue: argument.lowercased()) else { return nil }
        self.side = side
    }

    static var allValueStrings: [String] { ["home", "away"] }
}
