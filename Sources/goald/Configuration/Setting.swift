import Configuration
import Foundation

/// One configuration key of goald: its dotted name (YAML path), type, default, help and, when it has one, its
/// dedicated command-line flag. `GoaldSettings.all` lists every key; the loader, `check-config`, `--set`, the help
/// text and `Config/goald.yaml` all follow that list.
///
/// Value type, `Sendable`.
struct Setting: Sendable, Hashable {
    /// The value's shape.
    enum Kind: String, Sendable, Hashable {
        case string
        case integer
        case number
        case boolean
        case stringList = "list of strings"
    }

    /// The dotted key, e.g. `limits.maxConnectionsPerIP` (in YAML: `limits:` then `maxConnectionsPerIP:`).
    var key: String
    var kind: Kind
    /// The built-in default; nil when the key is unset unless given (optional file paths, inline PEM).
    var defaultValue: ConfigContent?
    /// One line for `--help`, `check-config` and the YAML example.
    var help: String
    /// The dedicated flag, e.g. `--port`; every key can also be set with `--set KEY=VALUE`.
    var flag: String?
    /// True for values `check-config` and logs must never show.
    var isSecret: Bool = false

    /// The environment variable that sets this key: `GOALD_` + the key in upper snake case, as swift-configuration's
    /// `EnvironmentVariablesProvider` spells `goald.<key>` (`limits.maxConnectionsPerIP` →
    /// `GOALD_LIMITS_MAX_CONNECTIONS_PER_IP`).
    var environmentName: String { Self.environmentName(forKey: "goald." + key) }

    /// The key as swift-configuration's `ConfigKey`.
    var configKey: ConfigKey { ConfigKey(key) }

    static func environmentName(forKey key: String) -> String {
        key.split(separator: ".").map { component -> String in
            var words = ""
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { words.append("_") }
                words.append(character)
                previous = character
            }
            return String(words.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }
        .joined(separator: "_")
    }

    /// The default as text, for help and the YAML example.
    var defaultText: String {
        guard let defaultValue else { return "unset" }
        return Self.text(defaultValue)
    }

    /// A value as text (lists comma-separated, `[]` when empty).
    static func text(_ content: ConfigContent) -> String {
        switch content {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): String(value)
        case .stringArray(let values): values.isEmpty ? "[]" : values.joined(separator: ",")
        default: "\(content)"
        }
    }

    /// Parses text given to `--set` into this key's type.
    /// - Returns: nil when the text does not parse.
    func parse(_ text: String) -> ConfigContent? {
        switch kind {
        case .string: return .string(text)
        case .integer: return Int(text).map(ConfigContent.int)
        case .number: return Double(text).flatMap { $0.isFinite ? ConfigContent.double($0) : nil }
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case .stringList:
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return .stringArray(items.filter { !$0.isEmpty })
        }
    }

    /// The swift-configuration type this key is read as.
    var configType: ConfigType {
        switch kind {
        case .string: .string
        case .integer: .int
        case .number: .double
        case .boolean: .bool
        case .stringList: .stringArray
        }
    }
}
