import ArgumentParser
import GoalCommandLine

/// `goal-client rankings`: rating descending (10 × points / (3 × played), two decimals), ties by name.
struct Rankings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the rankings.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandSession.run(connection) { _, lookup async throws(CLIFailure) in
            if output.json {
                Console.out(LeagueFormat.rankingsJSON(lookup).text)
            } else {
                LeagueFormat.rankingsText(lookup).forEach(Console.out)
            }
        }
    }
}
