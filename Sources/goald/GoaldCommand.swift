import ArgumentParser

/// The goald executable's root command. Placeholder: the subcommands arrive with issue 4.
@main
struct GoaldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "goald", abstract: "The goald league sync daemon.")
    func run() async throws {}
}
