import ArgumentParser
import Configuration
import Foundation

/// Options every subcommand shares: which YAML file, which state directory, and `--set KEY=VALUE` for any key.
struct StateOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "YAML configuration file. (default: $GOALD_CONFIG, else Config/goald.yaml in the working directory if "
                + "it exists, else none)",
            valueName: "path"
        )
    )
    var configFile: String?

    @Option(name: .customLong("state-dir"), help: SettingHelp.help(for: GoaldSettings.stateDirKey, valueName: "path"))
    var stateDirectory: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Sets any configuration key, e.g. --set limits.maxConnectionsPerIP=64 (repeatable; lists are "
                + "comma-separated). `goald --help` lists the keys.",
            valueName: "key=value"
        )
    )
    var overrides: [String] = []

    @Option(name: .customLong("store"), help: SettingHelp.help(for: "store.url", valueName: "postgres-url"))
    var store: String?

    func validate() throws {
        for override in overrides { _ = try Self.parseOverride(override) }
    }

    /// Adds these options' values to the flag layer (`--set` first, so dedicated flags win).
    func apply(to sources: inout ConfigurationSources) throws {
        sources.configFile = configFile
        for override in overrides {
            let (key, value) = try Self.parseOverride(override)
            sources.setFlag(key, value, from: "--set")
        }
        if let stateDirectory {
            sources.setFlag(GoaldSettings.stateDirKey, .string(stateDirectory), from: "--state-dir")
        }
        if let store {
            sources.setFlag("store.url", .string(store), from: "--store")
        }
    }

    /// Parses `KEY=VALUE` against the key's type.
    /// - Throws: `ValidationError` naming the unknown key or the value that does not parse.
    static func parseOverride(_ text: String) throws -> (String, ConfigContent) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--set \(text): expected KEY=VALUE, e.g. --set limits.maxConnectionsPerIP=64")
        }
        let key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: equals)...])
        guard let setting = GoaldSettings.setting(key) else {
            let near = GoaldSettings.all.map(\.key).filter { $0.lowercased() == key.lowercased() }
            let hint = near.first.map { " (did you mean \($0)?)" } ?? "; `goald --help` lists the keys"
            throw ValidationError("--set \(text): unknown key \"\(key)\"\(hint)")
        }
        guard !setting.isSecret else {
            throw ValidationError(
                "--set \(key): secrets are not accepted on the command line (other users can "
                    + "see it); use \(setting.environmentName) or the config file"
            )
        }
        guard let content = setting.parse(value) else {
            throw ValidationError(
                "--set \(text): \"\(value)\" is not \(setting.kind.rawValue == "integer" ? "an integer" : "a \(setting.kind.rawValue)")"
            )
        }
        return (key, content)
    }
}

/// Help text built from `GoaldSettings`, so flags, defaults and environment names never disagree.
enum SettingHelp {
    static func help(for key: String, valueName: String? = nil) -> ArgumentHelp {
        guard let setting = GoaldSettings.setting(key) else { return ArgumentHelp("(unknown key \(key))") }
        let defaultText =
            key == GoaldSettings.stateDirKey
            ? "$XDG_STATE_HOME/goald or ~/.local/state/goald"
            : setting.defaultText
        return ArgumentHelp(
            "\(setting.help) (default: \(defaultText); env \(setting.environmentName); key \(setting.key))",
            valueName: valueName
        )
    }

    /// The key table for `goald --help`: each key and its default.
    static var keyTable: String {
        let width = GoaldSettings.all.map(\.key.count).max() ?? 0
        return GoaldSettings.all.map { setting in
            let key = setting.key.padding(toLength: width, withPad: " ", startingAt: 0)
            let value = setting.key == GoaldSettings.stateDirKey ? "(see --state-dir)" : setting.defaultText
            return "  \(key)  \(value)"
        }
        .joined(separator: "\n")
    }
}
