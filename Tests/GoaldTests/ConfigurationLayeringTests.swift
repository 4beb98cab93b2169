import ArgumentParser
import Configuration
import Foundation
import GoalServer
import GoalStore
import GoalTestSlots
import Logging
import Testing

@testable import goald

@Suite("Configuration layers: defaults < file < environment < flags", .slotted)
struct ConfigurationLayeringTests {
    private func sources(_ directory: TemporaryDirectory, environment: [String: String] = [:]) -> ConfigurationSources {
        ConfigurationSources(
            environment: ["HOME": directory.path].merging(environment) { $1 },
            workingDirectory: directory.path
        )
    }

    private func writeConfig(_ directory: TemporaryDirectory, _ yaml: String) throws {
        try FileManager.default.createDirectory(atPath: directory.file("Config"), withIntermediateDirectories: true)
        try yaml.write(toFile: directory.file("Config/goald.yaml"), atomically: true, encoding: .utf8)
    }

    @Test("with nothing given, every value is the built-in default and the state dir follows HOME / XDG_STATE_HOME")
    func defaults() async throws {
        let directory = try TemporaryDirectory()
        let loaded = try await EffectiveConfiguration.load(sources(directory))
        #expect(loaded.server == ServerConfiguration(stateDirectory: directory.path + "/.local/state/goald"))
        #expect(loaded.logLevel == .info)
        #expect(loaded.logFormat == .text)
        #expect(loaded.configFile == nil)
        #expect(loaded.settings.allSatisfy { $0.layer == .defaults || $0.value == nil })
        let xdg = try await EffectiveConfiguration.load(
            sources(directory, environment: ["XDG_STATE_HOME": "/srv/state"])
        )
        #expect(xdg.server.stateDirectory == "/srv/state/goald")
    }

    @Test("the shipped Config/goald.yaml names every key and changes nothing")
    func shippedExampleIsDefaults() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/goald.yaml").path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        for setting in GoaldSettings.all {
            let leaf = String(setting.key.split(separator: ".").last!)
            #expect(text.contains("\(leaf):"), "Config/goald.yaml lacks \(setting.key)")
        }
        let directory = try TemporaryDirectory()
        var withFile = sources(directory)
        withFile.configFile = example
        let loaded = try await EffectiveConfiguration.load(withFile)
        #expect(loaded.server == ServerConfiguration(stateDirectory: directory.path + "/.local/state/goald"))
        #expect(loaded.configFile == example)
        #expect(loaded.settings.first { $0.setting.key == "limits.maxConnectionsPerIP" }?.layer == .file)
    }

    @Test("file < environment < flags, key by key, with each origin recorded")
    func precedence() async throws {
        let directory = try TemporaryDirectory()
        try writeConfig(
            directory,
            """
            port: 1001
            host: 10.0.0.1
            publicHosts: [file.example]
            limits:
              maxConnectionsPerIP: 11
              mutationsPerSecond: 12.5
            retention:
              chunkSize: 13
            """
        )
        var layered = sources(
            directory,
            environment: [
                "GOALD_PORT": "2002", "GOALD_LIMITS_MAX_CONNECTIONS_PER_IP": "22",
                "GOALD_PUBLIC_HOSTS": "env.example, 192.0.2.9",
                "GOALD_STATE_DIR": "/env/state",
            ]
        )
        layered.setFlag("port", .int(3003), from: "--port")
        let loaded = try await EffectiveConfiguration.load(layered)
        #expect(loaded.configFile == directory.file("Config/goald.yaml"))
        #expect(loaded.server.port == 3003)
        #expect(loaded.server.host == "10.0.0.1")
        #expect(loaded.server.limits.maxConnectionsPerIP == 22)
        #expect(loaded.server.limits.mutationsPerSecond == 12.5)
        #expect(loaded.server.retention.chunkSize == 13)
        #expect(loaded.server.publicHosts == ["env.example", "192.0.2.9"])
        #expect(loaded.server.stateDirectory == "/env/state")
        let origins = Dictionary(uniqueKeysWithValues: loaded.settings.map { ($0.setting.key, $0.origin) })
        #expect(origins["port"] == "flag --port")
        #expect(origins["limits.maxConnectionsPerIP"] == "environment GOALD_LIMITS_MAX_CONNECTIONS_PER_IP")
        #expect(origins["host"] == "file \(directory.file("Config/goald.yaml"))")
        #expect(origins["limits.backlogPageSize"] == "default")
        #expect(origins["tls.certificateFile"] == "unset")
    }

    @Test("--set reaches every key type, and a dedicated flag beats --set")
    func setOverrides() async throws {
        let directory = try TemporaryDirectory()
        let parsed = try #require(
            try Goald.parseAsRoot([
                "check-config", "--set", "limits.frameBurst=7.5", "--set", "metrics.enabled=yes", "--set",
                "publicHosts=a.example,b.example", "--set", "port=1", "--port", "2", "--set", "log.format=json",
                "--set", "retention.maximumAgeSeconds=60",
            ]) as? Goald.CheckConfig
        )
        var layered = sources(directory)
        try parsed.state.apply(to: &layered)
        parsed.serve.apply(to: &layered)
        let loaded = try await EffectiveConfiguration.load(layered)
        #expect(loaded.server.limits.frameBurst == 7.5)
        #expect(loaded.server.metricsListener == ServerConfiguration.MetricsListener())
        #expect(loaded.server.publicHosts == ["a.example", "b.example"])
        #expect(loaded.server.port == 2)
        #expect(loaded.logFormat == .json)
        #expect(loaded.server.retention.maximumAge == .seconds(60))
    }

    @Test("values of the wrong type are refused, naming the key, the layer and the value")
    func wrongTypes() async throws {
        let directory = try TemporaryDirectory()
        try writeConfig(directory, "limits:\n  maxConnectionsPerIP: lots\npublicHosts: one.example\n")
        let error = await #expect(throws: ConfigurationError.self) {
            try await EffectiveConfiguration.load(
                self.sources(directory, environment: ["GOALD_PORT": "seventy", "GOALD_METRICS_ENABLED": "maybe"])
            )
        }
        let problems = error?.problems.map(\.description) ?? []
        #expect(problems.contains("port (environment GOALD_PORT): \"seventy\" is not an integer"))
        #expect(
            problems.contains("metrics.enabled (environment GOALD_METRICS_ENABLED): \"maybe\" is not true or false")
        )
        #expect(
            problems.contains(
                "limits.maxConnectionsPerIP (file \(directory.file("Config/goald.yaml"))): the value is not an integer"
            )
        )
        #expect(problems.contains { $0.hasPrefix("publicHosts (file") && $0.contains("is not a YAML list") })
        #expect(problems.count == 4)
    }

    @Test("values out of range are refused, every one of them")
    func outOfRange() async throws {
        let directory = try TemporaryDirectory()
        var bad = sources(
            directory,
            environment: [
                "GOALD_PORT": "70000", "GOALD_LIMITS_SESSION_QUEUE_BYTES": "0", "GOALD_LIMITS_MUTATION_BURST": "-1",
                "GOALD_METRICS_ENABLED": "true", "GOALD_METRICS_HOST": "0.0.0.0", "GOALD_LOG_LEVEL": "loud",
                "GOALD_PUBLIC_HOSTS": "ok.example,bad_host!", "GOALD_TLS_CERTIFICATE_FILE": "/c.pem",
            ]
        )
        bad.setFlag("retention.chunkSize", .int(0), from: "--set")
        bad.setFlag("clientRecords.maximumAgeSeconds", .int(86_400), from: "--set")
        let error = await #expect(throws: ConfigurationError.self) { try await EffectiveConfiguration.load(bad) }
        let problems = error?.problems.map(\.description) ?? []
        #expect(problems.contains("port (environment GOALD_PORT): 70000 is out of range; allowed: 0…65535"))
        #expect(
            problems.contains(
                "limits.sessionQueueBytes (environment GOALD_LIMITS_SESSION_QUEUE_BYTES): 0 must be positive (at least 1)"
            )
        )
        #expect(
            problems.contains(
                "limits.mutationBurst (environment GOALD_LIMITS_MUTATION_BURST): -1 must be a positive number"
            )
        )
        #expect(
            problems.contains {
                $0.hasPrefix("metrics.host (environment GOALD_METRICS_HOST): \"0.0.0.0\" is not a loopback address")
            }
        )
        #expect(
            problems.contains { $0.hasPrefix("log.level (environment GOALD_LOG_LEVEL): \"loud\" is not one of trace") }
        )
        #expect(
            problems.contains {
                $0.hasPrefix("publicHosts (environment GOALD_PUBLIC_HOSTS): public host \"bad_host!\" is invalid")
            }
        )
        #expect(problems.contains("tls.privateKeyFile: is required when tls.certificateFile is set"))
        #expect(problems.contains("retention.chunkSize (flag --set): 0 must be positive (at least 1)"))
        #expect(
            problems.contains(
                "clientRecords.maximumAgeSeconds (flag --set): 86400 is out of range; allowed: 604800…2147483647"
            ),
            "clients rely on 7 days (PROTOCOL.md §6)"
        )
        #expect(problems.count == 9)
    }

    @Test("a missing --config file or unreadable YAML is named")
    func badConfigFile() async throws {
        let directory = try TemporaryDirectory()
        var missing = sources(directory)
        missing.configFile = "nowhere.yaml"
        let notFound = await #expect(throws: ConfigurationError.self) { try await EffectiveConfiguration.load(missing) }
        #expect(
            notFound?.problems.map(\.description) == [
                "--config: the config file \(directory.file("nowhere.yaml")) does not exist"
            ]
        )
        try writeConfig(directory, "port: [1, 2\n")
        let broken = await #expect(throws: ConfigurationError.self) {
            try await EffectiveConfiguration.load(self.sources(directory))
        }
        #expect(
            broken?.problems.first?.description.hasPrefix(
                "file \(directory.file("Config/goald.yaml")): cannot be read as YAML"
            ) == true
        )
    }

    @Test("an empty string means not set: the default applies; ~ starts at HOME")
    func emptyAndTilde() async throws {
        let directory = try TemporaryDirectory()
        try writeConfig(
            directory,
            "host: \"\"\ntls:\n  certificateFile: ~/certs/chain.pem\n  privateKeyFile: key.pem\n"
        )
        let loaded = try await EffectiveConfiguration.load(
            sources(directory, environment: ["GOALD_STATE_DIR": ""])
        )
        #expect(loaded.server.host == "127.0.0.1")
        #expect(loaded.server.stateDirectory == directory.path + "/.local/state/goald")
        #expect(loaded.settings.first { $0.setting.key == "stateDir" }?.origin == "default")
        #expect(
            loaded.server.tls
                == .files(certificate: directory.path + "/certs/chain.pem", privateKey: directory.file("key.pem"))
        )
    }

    @Test("environment names follow swift-configuration's spelling; unknown GOALD_ variables are reported")
    func environmentNames() {
        #expect(GoaldSettings.setting("stateDir")?.environmentName == "GOALD_STATE_DIR")
        #expect(
            GoaldSettings.setting("limits.maxConnectionsPerIP")?.environmentName
                == "GOALD_LIMITS_MAX_CONNECTIONS_PER_IP"
        )
        #expect(GoaldSettings.setting("tls.privateKeyPEM")?.environmentName == "GOALD_TLS_PRIVATE_KEY_PEM")
        #expect(
            ConfigurationLoader.unknownEnvironmentVariables([
                "GOALD_PROT": "1", "GOALD_PORT": "2", "GOALD_CONFIG": "x", "HOME": "/",
            ])
                == ["GOALD_PROT"]
        )
    }
}
