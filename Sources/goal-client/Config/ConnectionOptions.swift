import ArgumentParser

/// Where the server is and how to trust it; shared by every command through `@OptionGroup`.
/// Tokens are never flags: `GOAL_TOKEN`, the config file or `login`'s prompt.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A goald URL, e.g. wss://localhost:7443. Repeat it for the nodes of one league, in failover order: "
                + "the client uses the first and resumes on the next when it is lost or down. "
                + "(default: $GOAL_SERVER, a comma-separated list, else the config file)",
            valueName: "url"
        )
    )
    var server: [String] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "PEM file of the CA to trust (goald prints it). (default: $GOAL_CA_FILE, else the config file)",
            valueName: "path"
        )
    )
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "Trust exactly the server certificate with this SHA-256 fingerprint (hex). (default: $GOAL_FINGERPRINT, else the config file)",
            valueName: "hex"
        )
    )
    var fingerprint: String?

    @Flag(help: "Accept any server certificate (development only: anyone on the path can read the traffic).")
    var insecure = false

    @Option(
        help: ArgumentHelp(
            "The league to follow, by id (goal-client leagues lists them). "
                + "(default: $GOAL_LEAGUE, else the config file, else the server's default league)",
            valueName: "id"
        )
    )
    var league: String?

    func validate() throws {
        if caFile != nil && fingerprint != nil {
            throw ValidationError("give either --ca-file or --fingerprint, not both")
        }
        if let caFile, let problem = ClientSettings.caFileProblem(caFile, source: "--ca-file") {
            throw ValidationError(problem)
        }
        if let fingerprint, let problem = ClientSettings.fingerprintProblem(fingerprint, source: "--fingerprint") {
            throw ValidationError(problem)
        }
        if let league, let problem = ClientSettings.leagueProblem(league, source: "--league") {
            throw ValidationError(problem)
        }
    }
}

/// `--json` for commands that print data.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (one document; `tail`: one object a line) instead of a human table.")
    var json = false
}
