import Configuration

/// The inputs of one configuration load: flag values, the environment and where to look for the YAML file.
/// Commands build it from their options and `CommandContext`; tests build it directly (never the process
/// environment).
///
/// Value type, `Sendable`.
struct ConfigurationSources: Sendable {
    /// Values from the command line, by key (dedicated flags and `--set KEY=VALUE`), already typed.
    var flags: [String: ConfigContent] = [:]
    /// The flag each flag value came from (`--port`, `--set`), for messages.
    var flagNames: [String: String] = [:]
    /// The environment (`GOALD_*` and `HOME`/`XDG_STATE_HOME` for the default state directory).
    var environment: [String: String] = [:]
    /// `--config PATH`; nil: `$GOALD_CONFIG`, else `Config/goald.yaml` under `workingDirectory` when it exists.
    var configFile: String?
    /// Where relative paths start.
    var workingDirectory: String

    /// The environment variable naming the config file when `--config` is not given.
    static let configFileVariable = "GOALD_CONFIG"
    /// The file used when neither `--config` nor `GOALD_CONFIG` is given and it exists.
    static let defaultConfigFile = "Config/goald.yaml"

    /// Sets a flag value.
    mutating func setFlag(_ key: String, _ value: ConfigContent, from flag: String) {
        flags[key] = value
        flagNames[key] = flag
    }
}

/// Where an effective value came from, lowest precedence first.
enum ConfigurationLayer: Int, Comparable, Sendable, Hashable {
    case defaults
    case file
    case environment
    case flags

    static func < (lhs: ConfigurationLayer, rhs: ConfigurationLayer) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One key's effective value and its origin. Value type, `Sendable`.
struct ResolvedSetting: Sendable, Hashable {
    var setting: Setting
    /// nil when unset in every layer (and without a default).
    var value: ConfigContent?
    var layer: ConfigurationLayer?
    /// Human words for the origin: `default`, `file Config/goald.yaml`, `environment GOALD_PORT`, `flag --port`.
    var origin: String
}

/// A problem with the configuration: which key (when one), where it came from, and what is wrong.
struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    var key: String?
    var origin: String?
    var message: String

    var description: String {
        switch (key, origin) {
        case (let key?, let origin?): "\(key) (\(origin)): \(message)"
        case (let key?, nil): "\(key): \(message)"
        case (nil, let origin?): "\(origin): \(message)"
        case (nil, nil): message
        }
    }
}

/// Every problem found while loading or checking the configuration. Value type, `Sendable`.
struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    var problems: [ConfigurationProblem]

    var description: String {
        "the configuration has \(problems.count) problem" + (problems.count == 1 ? "" : "s") + ":\n"
            + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
