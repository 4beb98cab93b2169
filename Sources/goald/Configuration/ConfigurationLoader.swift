import Configuration
import Foundation

/// Reads every key of `GoaldSettings` through swift-configuration, layered lowest to highest: built-in defaults →
/// the YAML file → `GOALD_*` environment variables → command-line flags. Records which layer gave each value.
///
/// Stateless. Reads the config file (blocking IO); never reads the process environment itself.
enum ConfigurationLoader {
    /// Loads the effective values (not yet checked; see `EffectiveConfiguration.build`).
    /// - Returns: One `ResolvedSetting` per key, in `GoaldSettings.all` order, and the file used.
    /// - Throws: `ConfigurationError` listing every value of the wrong type and any unreadable file.
    static func resolve(
        _ sources: ConfigurationSources
    ) async throws(ConfigurationError) -> (settings: [ResolvedSetting], configFile: String?) {
        let configFile = try chosenConfigFile(sources)
        var layers: [(ConfigurationLayer, any ConfigProvider)] = [
            (.flags, InMemoryProvider(name: "flags", values: absolute(sources.flags, secret: secretKeys))),
            (
                .environment,
                EnvironmentVariablesProvider(
                    environmentVariables: sources.environment,
                    secretsSpecifier: .specific(Set(GoaldSettings.all.filter(\.isSecret).map(\.environmentName)))
                )
                .prefixKeys(with: ConfigKey("goald"))
            ),
        ]
        if let configFile {
            layers.append((.file, try await fileProvider(configFile)))
        }
        let defaultValues = defaults(sources)
        layers.append((.defaults, InMemoryProvider(name: "defaults", values: absolute(defaultValues, secret: []))))

        let recorder = LayerRecorder()
        let reader = ConfigReader(providers: layers.map(\.1), accessReporter: recorder)
        var resolved: [ResolvedSetting] = []
        var problems: [ConfigurationProblem] = []
        for setting in GoaldSettings.all {
            read(setting, from: reader)
            let results = recorder.take()?.providerResults ?? []
            guard let last = results.last else {
                resolved.append(ResolvedSetting(setting: setting, value: nil, layer: nil, origin: "unset"))
                continue
            }
            let layer = layers[results.count - 1].0
            let origin = describe(layer, setting: setting, sources: sources, configFile: configFile)
            switch last.result {
            case .failure:
                problems.append(
                    ConfigurationProblem(
                        key: setting.key,
                        origin: origin,
                        message: typeMessage(setting, layer, sources)
                    )
                )
            case .success(let lookup):
                if let value = lookup.value.map(\.content).flatMap(normalized) {
                    resolved.append(ResolvedSetting(setting: setting, value: value, layer: layer, origin: origin))
                } else if let fallback = defaultValues[setting.key] {
                    // An empty string in a higher layer means "not set here": the default applies.
                    resolved.append(
                        ResolvedSetting(setting: setting, value: fallback, layer: .defaults, origin: "default")
                    )
                } else {
                    resolved.append(ResolvedSetting(setting: setting, value: nil, layer: nil, origin: "unset"))
                }
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return (resolved, configFile)
    }

    /// `GOALD_*` variables that name no key (a typo would otherwise be ignored silently).
    static func unknownEnvironmentVariables(_ environment: [String: String]) -> [String] {
        let known = Set(GoaldSettings.all.map(\.environmentName) + [ConfigurationSources.configFileVariable])
        return environment.keys.filter { $0.hasPrefix("GOALD_") && !known.contains($0) }.sorted()
    }

    /// The default state directory: `$XDG_STATE_HOME/goald`, else `$HOME/.local/state/goald`.
    static func defaultStateDirectory(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/goald" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/state/goald"
    }

    private static let secretKeys = Set(GoaldSettings.all.filter(\.isSecret).map(\.key))

    private static func read(_ setting: Setting, from reader: ConfigReader) {
        let key = setting.configKey
        switch setting.kind {
        case .string: _ = reader.string(forKey: key, isSecret: setting.isSecret)
        case .integer: _ = reader.int(forKey: key, isSecret: setting.isSecret)
        case .number: _ = reader.double(forKey: key, isSecret: setting.isSecret)
        case .boolean: _ = reader.bool(forKey: key, isSecret: setting.isSecret)
        case .stringList: _ = reader.stringArray(forKey: key, isSecret: setting.isSecret)
        }
    }

    /// Empty strings (and YAML's `~`/`null`) mean "unset" for keys without a default.
    private static func normalized(_ content: ConfigContent) -> ConfigContent? {
        if case .string(let text) = content, ["", "~", "null"].contains(text) { return nil }
        return content
    }

    private static func defaults(_ sources: ConfigurationSources) -> [String: ConfigContent] {
        var values: [String: ConfigContent] = [:]
        for setting in GoaldSettings.all {
            if let value = setting.defaultValue { values[setting.key] = value }
        }
        values[GoaldSettings.stateDirKey] = .string(defaultStateDirectory(environment: sources.environment))
        return values
    }

    private static func absolute(
        _ values: [String: ConfigContent],
        secret: Set<String>
    ) -> [AbsoluteConfigKey: ConfigValue] {
        var result: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, content) in values {
            result[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(content, isSecret: secret.contains(key))
        }
        return result
    }

    private static func chosenConfigFile(_ sources: ConfigurationSources) throws(ConfigurationError) -> String? {
        if let explicit = sources.configFile ?? sources.environment[ConfigurationSources.configFileVariable] {
            let path = absolutePath(explicit, in: sources.workingDirectory, home: sources.environment["HOME"])
            guard FileManager.default.isReadableFile(atPath: path) else {
                let origin = sources.configFile != nil ? "--config" : ConfigurationSources.configFileVariable
                let reason = FileManager.default.fileExists(atPath: path) ? "is not readable" : "does not exist"
                throw ConfigurationError(problems: [
                    ConfigurationProblem(key: nil, origin: origin, message: "the config file \(path) \(reason)")
                ])
            }
            return path
        }
        let fallback = absolutePath(ConfigurationSources.defaultConfigFile, in: sources.workingDirectory)
        return FileManager.default.isReadableFile(atPath: fallback) ? fallback : nil
    }

    private static func fileProvider(_ path: String) async throws(ConfigurationError) -> any ConfigProvider {
        let location = ConfigReader(
            provider: InMemoryProvider(values: [
                AbsoluteConfigKey(ConfigKey("filePath")): ConfigValue(.string(path), isSecret: false)
            ])
        )
        let secrets = Set(GoaldSettings.all.filter(\.isSecret).map(\.key))
        do {
            return try await FileProvider<YAMLSnapshot>(
                parsingOptions: YAMLSnapshot.ParsingOptions(
                    secretsSpecifier: .dynamic { key, _ in secrets.contains(key) }
                ),
                config: location
            )
        } catch {
            throw ConfigurationError(problems: [
                ConfigurationProblem(key: nil, origin: "file \(path)", message: "cannot be read as YAML: \(error)")
            ])
        }
    }

    /// `path` made absolute: `~` and `~/…` start at `home` (when known), other relative paths at `directory`.
    static func absolutePath(_ path: String, in directory: String, home: String? = nil) -> String {
        if let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") { return home + path.dropFirst() }
        return path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
    }

    private static func describe(
        _ layer: ConfigurationLayer,
        setting: Setting,
        sources: ConfigurationSources,
        configFile: String?
    ) -> String {
        switch layer {
        case .defaults: "default"
        case .file: "file \(configFile ?? "")"
        case .environment: "environment \(setting.environmentName)"
        case .flags: "flag \(sources.flagNames[setting.key] ?? "--set")"
        }
    }

    private static func typeMessage(
        _ setting: Setting,
        _ layer: ConfigurationLayer,
        _ sources: ConfigurationSources
    ) -> String {
        let expected: String
        switch setting.kind {
        case .string: expected = "text"
        case .integer: expected = "an integer"
        case .number: expected = "a number"
        case .boolean: expected = "true or false"
        case .stringList: expected = layer == .file ? "a YAML list ([a, b] or one \"- item\" per line)" : "a list"
        }
        if layer == .environment, let raw = sources.environment[setting.environmentName] {
            let shown = setting.isSecret ? "<secret>" : "\"\(raw)\""
            return "\(shown) is not \(expected)"
        }
        return "the value is not \(expected)"
    }
}
