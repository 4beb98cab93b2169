import ArgumentParser
import Configuration
import Foundation
import GoalPostgres
import GoalServer

extension Goald {
    /// `goald check-config`: the effective configuration, with origins and secrets masked, and every problem.
    struct CheckConfig: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Print the effective configuration (secrets masked) and check it.",
            discussion: "Takes the same options as `serve`. A PostgreSQL store (--store) is connected to and its "
                + "goald schema and head are read, without changing anything. Exits 0 when the configuration is "
                + "usable, 1 with every problem listed otherwise."
        )

        @OptionGroup var state: StateOptions
        @OptionGroup var serve: ServeOptions

        func run() async throws { try await run(in: .live()) }

        func run(in context: CommandContext) async throws {
            let configuration: EffectiveConfiguration
            do {
                configuration = try await context.configuration(state: state, serve: serve)
            } catch let error as ConfigurationError {
                context.output("goald configuration: not usable")
                for problem in error.problems { context.output("  problem: \(problem)") }
                throw ExitCode(1)
            }
            for line in ConfigurationReport.lines(configuration) { context.output(line) }
            context.output(ConfigurationReport.tlsSummary(configuration.server))
            var problems = ConfigurationReport.fileProblems(configuration.server)
            if let postgres = configuration.postgres {
                do {
                    let probe = try PostgresStoreProbe.run(postgres)
                    context.output("store: \(postgres) — \(probe.summary)")
                    if let problem = probe.problem {
                        problems.append(ConfigurationProblem(key: "store.url", message: problem))
                    }
                } catch {
                    problems.append(
                        ConfigurationProblem(key: "store.url", message: "\(postgres) cannot be used: \(error)")
                    )
                }
            }
            let warnings = configuration.unknownEnvironmentVariables.map {
                "\($0) names no configuration key; it is ignored"
            }
            for warning in warnings { context.output("  warning: \(warning)") }
            guard problems.isEmpty else {
                for problem in problems { context.output("  problem: \(problem)") }
                context.output(
                    "goald configuration: not usable (\(problems.count) problem\(problems.count == 1 ? "" : "s"))"
                )
                throw ExitCode(1)
            }
            context.output("goald configuration: ok")
        }
    }
}

/// The text `check-config` prints.
enum ConfigurationReport {
    /// One line per key: key, effective value (secrets masked), origin.
    static func lines(_ configuration: EffectiveConfiguration) -> [String] {
        let rows = configuration.settings.map { resolved in
            [resolved.setting.key, display(resolved), resolved.origin]
        }
        let keyWidth = rows.map { $0[0].count }.max() ?? 0
        let valueWidth = min(48, rows.map { $0[1].count }.max() ?? 0)
        var lines = ["config file: \(configuration.configFile ?? "none")"]
        lines += rows.map { row in
            row[0].padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                + (row[1].count < valueWidth
                    ? row[1].padding(toLength: valueWidth, withPad: " ", startingAt: 0) : row[1])
                + "  " + row[2]
        }
        return lines
    }

    /// The value as `check-config` shows it: secrets as `<secret, N bytes>`, unset as `-`, long PEM text shortened.
    static func display(_ resolved: ResolvedSetting) -> String {
        guard let value = resolved.value else { return "-" }
        if resolved.setting.isSecret {
            if case .string(let text) = value { return SecretText(text).description }
            return "<secret>"
        }
        let text = Setting.text(value)
        if text.contains("\n") { return "<PEM, \(text.utf8.count) bytes>" }
        return text
    }

    /// One line saying where the listener's certificate will come from.
    static func tlsSummary(_ server: ServerConfiguration) -> String {
        switch server.tls {
        case .generated:
            let authority = DevCertificateAuthority(directory: server.generatedTLSDirectory)
            let state =
                FileManager.default.fileExists(atPath: authority.authorityCertificatePath)
                ? "exists; clients trust \(authority.authorityCertificatePath)"
                : "made on first start"
            return "tls: development CA under \(server.generatedTLSDirectory) (\(state))"
        case .files(let certificate, let key):
            return "tls: operator files \(certificate) and \(key)"
        case .pem:
            return "tls: inline PEM (tls.certificatePEM, tls.privateKeyPEM)"
        }
    }

    /// Problems only the file system can show: unreadable certificate or key files, material that does not load,
    /// an unusable state directory.
    static func fileProblems(_ server: ServerConfiguration) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        switch server.tls {
        case .generated:
            break
        case .files(let certificate, let key):
            for (name, path) in [("tls.certificateFile", certificate), ("tls.privateKeyFile", key)]
            where !FileManager.default.isReadableFile(atPath: path) {
                let reason =
                    FileManager.default.fileExists(atPath: path) ? "is not readable by this user" : "does not exist"
                problems.append(ConfigurationProblem(key: name, origin: nil, message: "\(path) \(reason)"))
            }
            if problems.isEmpty { problems += loadProblem(server) }
        case .pem:
            problems += loadProblem(server)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: server.stateDirectory, isDirectory: &isDirectory) {
            if !isDirectory.boolValue {
                problems.append(
                    ConfigurationProblem(
                        key: "stateDir",
                        origin: nil,
                        message: "\(server.stateDirectory) is not a directory"
                    )
                )
            } else if !FileManager.default.isWritableFile(atPath: server.stateDirectory) {
                problems.append(
                    ConfigurationProblem(
                        key: "stateDir",
                        origin: nil,
                        message: "\(server.stateDirectory) is not writable"
                    )
                )
            }
        }
        return problems
    }

    private static func loadProblem(_ server: ServerConfiguration) -> [ConfigurationProblem] {
        do {
            _ = try TLSMaterial.load(for: server).makeServerContext()
            return []
        } catch {
            return [ConfigurationProblem(key: "tls", origin: nil, message: error.description)]
        }
    }
}
