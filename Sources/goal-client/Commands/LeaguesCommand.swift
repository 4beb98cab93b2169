import ArgumentParser
import GoalCommandLine
import GoalModel
import GoalWire

/// `goal-client leagues [--json]`: the leagues the token may see on goald (id, name, the token's role there, when
/// created), the one commands follow (`--league`, `GOAL_LEAGUE`, the saved login, else the default) marked `*`.
/// Read over the HTTP API (`LeagueDirectory`); exit codes as every command (3 cannot connect, 4 unauthorized).
struct Leagues: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the leagues your token may see (* marks the one commands follow).",
        discussion: """
            Follow another league with --league ID on any command, GOAL_LEAGUE=ID, or save it with \
            goal-client login --league ID. In the UI, l switches leagues.
            """
    )
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let settings = try ClientSettings.resolve(connection)
        let leagues = try await LeagueDirectory.list(settings)
        let current = settings.league ?? .default
        if output.json {
            Console.out(Self.json(leagues, current: current).text)
        } else {
            Self.lines(leagues, current: current).forEach(Console.out)
        }
    }

    /// The table for people: `*` marks the current league; a line says so when the token may see none, or when the
    /// current league is not among them.
    static func lines(_ leagues: [LeagueListing], current: LeagueSlug) -> [String] {
        guard !leagues.isEmpty else { return ["your token may see no league"] }
        let rows = leagues.map { league in
            [
                league.id == current ? "*" : " ", league.id.rawValue, TerminalText.escape(league.name),
                league.role.rawValue, TerminalText.escape(league.created),
            ]
        }
        var lines = TextTable(header: [" ", "ID", "NAME", "ROLE", "CREATED"], rows: rows).lines
        if !leagues.contains(where: { $0.id == current }) {
            lines.append("(the league commands follow, \(current.rawValue), is not among them)")
        }
        return lines
    }

    /// One document for scripts: `{"current": id, "leagues": [{"id","name","role","created","current"}]}`.
    static func json(_ leagues: [LeagueListing], current: LeagueSlug) -> JSONDocument {
        .object([
            ("current", .string(current.rawValue)),
            (
                "leagues",
                .array(
                    leagues.map { league in
                        .object([
                            ("id", .string(league.id.rawValue)),
                            ("name", .string(league.name)),
                            ("role", .string(league.role.rawValue)),
                            ("created", .string(league.created)),
                            ("current", .bool(league.id == current)),
                        ])
                    }
                )
            ),
        ])
    }
}
