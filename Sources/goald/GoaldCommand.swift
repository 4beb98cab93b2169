import ArgumentParser
import GoalCommandLine

/// The goald executable: `serve` (the default), `token`, `league`, `check-config`, `backup`, `restore`, `migrate`.
///
/// Thin: each subcommand turns its options into a configuration through `EffectiveConfiguration.load` and calls
/// GoalServer / GoalStore. Each has `run()` for the process and `run(in:)` for tests (their own environment and
/// output).
@main
struct Goald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goald",
        abstract: "The goald league sync daemon: TLS WebSocket server, tokens, backups.",
        discussion: """
            Configuration is layered, each layer overriding the one before: built-in defaults → the YAML file \
            (--config, $GOALD_CONFIG, or Config/goald.yaml in the working directory) → GOALD_* environment \
            variables → command-line flags (dedicated flags and --set KEY=VALUE). `goald check-config` prints the \
            effective value of every key and where it came from.

            First start: goald makes the state directory, a development CA and server certificate under \
            <state>/tls, and an admin token in <state>/admin-token (mode 0600), then prints how to connect.

            Every key and its default. In YAML a dotted key nests (limits: then maxConnectionsPerIP:); its \
            environment variable is GOALD_ plus the key in upper snake case (limits.maxConnectionsPerIP → \
            GOALD_LIMITS_MAX_CONNECTIONS_PER_IP, stateDir → GOALD_STATE_DIR); lists are comma-separated there and \
            in --set. Config/goald.yaml explains each key.
            \(SettingHelp.keyTable)
            """,
        version: GoalRelease.version,
        subcommands: [Serve.self, Token.self, League.self, CheckConfig.self, Backup.self, Restore.self, Migrate.self],
        defaultSubcommand: Serve.self
    )

    /// Parses and runs with SIGPIPE ignored (a closed output ends it quietly; `StandardStreams`).
    static func main() async { await mainIgnoringBrokenPipe() }
}
