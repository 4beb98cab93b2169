import ArgumentParser

/// Entry point: one subcommand per benchmark family; each prints its figures with the command that made them.
@main
struct GoalMicrobench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal-microbench",
        abstract:
            "Micro-benchmarks of goald's pure parts (model, wire, reactive). Not tests: nothing here passes or fails.",
        subcommands: GoalMicrobench.registered
    )

    /// Each benchmark file adds its command here.
    static let registered: [any ParsableCommand.Type] = [
        RowChangesBenchmark.self, ConflictEngineBenchmark.self, WireBenchmark.self, ReactiveBenchmark.self,
        ReplicaBenchmark.self, DecodeApplyBenchmark.self, MatchesViewModelBenchmark.self,
    ]
}
