import ArgumentParser
import Configuration

/// The options of the running daemon (`serve`) that `check-config` also accepts, so it checks exactly what
/// `serve` would run with. Unset options leave the key to the lower layers (environment, file, defaults).
struct ServeOptions: ParsableArguments {
    @Option(help: SettingHelp.help(for: "host", valueName: "address"))
    var host: String?

    @Option(help: SettingHelp.help(for: "port"))
    var port: Int?

    @Option(name: .customLong("public-host"), help: SettingHelp.help(for: "publicHosts", valueName: "name"))
    var publicHosts: [String] = []

    @Option(name: .customLong("tls-certificate"), help: SettingHelp.help(for: "tls.certificateFile", valueName: "path"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-private-key"), help: SettingHelp.help(for: "tls.privateKeyFile", valueName: "path"))
    var tlsPrivateKey: String?

    @Flag(inversion: .prefixedNo, help: SettingHelp.help(for: "metrics.enabled"))
    var metrics: Bool?

    @Option(name: .customLong("metrics-host"), help: SettingHelp.help(for: "metrics.host", valueName: "address"))
    var metricsHost: String?

    @Option(name: .customLong("metrics-port"), help: SettingHelp.help(for: "metrics.port", valueName: "port"))
    var metricsPort: Int?

    @Option(name: .customLong("log-level"), help: SettingHelp.help(for: "log.level", valueName: "level"))
    var logLevel: String?

    @Option(name: .customLong("log-format"), help: SettingHelp.help(for: "log.format", valueName: "text|json"))
    var logFormat: String?

    func validate() throws {
        if let port, !(0...65_535).contains(port) {
            throw ValidationError("--port \(port) is out of range; allowed: 0…65535")
        }
        if let metricsPort, !(0...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port \(metricsPort) is out of range; allowed: 0…65535")
        }
        if (tlsCertificate == nil) != (tlsPrivateKey == nil) {
            throw ValidationError("--tls-certificate and --tls-private-key go together; give both or neither")
        }
        if let logFormat, LogFormat(rawValue: logFormat.lowercased()) == nil {
            throw ValidationError("--log-format \(logFormat): expected text or json")
        }
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        if let logLevel, !levels.contains(logLevel.lowercased()) {
            throw ValidationError("--log-level \(logLevel): expected one of \(levels.joined(separator: ", "))")
        }
    }

    /// Adds the given options to the flag layer.
    func apply(to sources: inout ConfigurationSources) {
        if let host { sources.setFlag("host", .string(host), from: "--host") }
        if let port { sources.setFlag("port", .int(port), from: "--port") }
        if !publicHosts.isEmpty { sources.setFlag("publicHosts", .stringArray(publicHosts), from: "--public-host") }
        if let tlsCertificate {
            sources.setFlag("tls.certificateFile", .string(tlsCertificate), from: "--tls-certificate")
        }
        if let tlsPrivateKey {
            sources.setFlag("tls.privateKeyFile", .string(tlsPrivateKey), from: "--tls-private-key")
        }
        if let metrics {
            sources.setFlag("metrics.enabled", .bool(metrics), from: metrics ? "--metrics" : "--no-metrics")
        }
        if let metricsHost { sources.setFlag("metrics.host", .string(metricsHost), from: "--metrics-host") }
        if let metricsPort { sources.setFlag("metrics.port", .int(metricsPort), from: "--metrics-port") }
        if let logLevel { sources.setFlag("log.level", .string(logLevel.lowercased()), from: "--log-level") }
        if let logFormat { sources.setFlag("log.format", .string(logFormat.lowercased()), from: "--log-format") }
    }
}

extension CommandContext {
    /// Loads the effective configuration from these options, this context's environment and the config file.
    ///
    /// Never inlined: Swift 6.3.1's optimizer crashed (signal 11 in LLVM's coroutine splitting,
    /// `emitSetAndGetSwiftErrorValueAround`) splitting the async commands it was inlined into, where the typed
    /// `throws(ConfigurationError)` of the async loader met the command's untyped throws.
    @inline(never)
    func configuration(
        state: StateOptions,
        serve: ServeOptions? = nil
    ) async throws -> EffectiveConfiguration {
        var sources = ConfigurationSources(environment: environment, workingDirectory: workingDirectory)
        try state.apply(to: &sources)
        serve?.apply(to: &sources)
        return try await EffectiveConfiguration.load(sources)
    }
}
