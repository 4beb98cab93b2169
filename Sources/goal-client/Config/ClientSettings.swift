import Foundation
import GoalModel
import GoalTransport

/// Everything needed to reach a goald league, resolved in layers: the config file, then environment (`GOAL_SERVER`,
/// `GOAL_CA_FILE`, `GOAL_FINGERPRINT`, `GOAL_TOKEN`, `GOAL_LEAGUE`), then flags. The servers are a list, in failover order: the
/// nodes of one league (one `--server` per node, or `GOAL_SERVER=wss://a:7443,wss://b:7443`). Value type,
/// `Sendable`.
struct ClientSettings: Sendable {
    /// The servers, in failover order (never empty), parsed.
    var endpoints: [ServerEndpoint]
    /// The same servers as the user wrote them (for messages and status).
    var serverURLs: [String]
    var security: TransportSecurity
    var token: String
    /// The league to follow; nil: the server's default league (`--league default` is nil too, so its hello and its
    /// state file are those of a client that names no league).
    var league: LeagueSlug? = nil

    /// The league for messages: its id, `default` when none is named.
    var leagueName: String { (league ?? .default).rawValue }

    /// The servers for messages: "wss://a:7443" or "wss://a:7443, wss://b:7443".
    var serverList: String { serverURLs.joined(separator: ", ") }

    /// The server list a layer gives: repeated flags, or one value with commas (`GOAL_SERVER`); blanks dropped.
    static func serverList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    /// The servers of the first layer that names any: flags, then `GOAL_SERVER`, then the config file.
    static func servers(_ options: ConnectionOptions, environment: [String: String], file: ConfigFile) -> [String] {
        let flags = serverList(options.server)
        if !flags.isEmpty { return flags }
        let variable = serverList([environment["GOAL_SERVER"] ?? ""])
        if !variable.isEmpty { return variable }
        return file.servers
    }

    /// Resolves the settings.
    /// - Throws: `CLIFailure.usage` when no server is configured or the URL does not parse,
    ///   `.unauthorized` when there is no token.
    static func resolve(
        _ options: ConnectionOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIFailure) -> ClientSettings {
        let path = ConfigFile.path(environment: environment)
        let file = try ConfigFile.load(from: path)
        func env(_ key: String) -> String? {
            guard let value = environment[key], !value.isEmpty else { return nil }
            return value
        }
        let urls = servers(options, environment: environment, file: file)
        guard !urls.isEmpty else {
            throw .usage("no server: pass --server wss://HOST:PORT, set GOAL_SERVER, or run goal-client login")
        }
        var endpoints: [ServerEndpoint] = []
        for url in urls {
            do {
                endpoints.append(try ServerEndpoint(parsing: url))
            } catch {
                throw .usage("\(error); use wss://HOST:PORT as goald serve prints it")
            }
        }
        let security = resolveSecurity(options, env: env, file: file)
        try checkTrust(security, options: options, env: env)
        guard let token = env("GOAL_TOKEN") ?? file.token else {
            throw .unauthorized(
                "no token: set GOAL_TOKEN or run goal-client login (an admin makes one with goald token create)"
            )
        }
        let league = try resolveLeague(options, env: env, file: file)
        return ClientSettings(
            endpoints: endpoints,
            serverURLs: urls,
            security: security,
            token: token,
            league: league.isDefault ? nil : league
        )
    }

    /// The league of the first layer that names one: `--league`, then `GOAL_LEAGUE`, then the config file; else the
    /// default league.
    /// - Throws: `CLIFailure.usage` naming the value and where it came from when it is not a league id.
    static func resolveLeague(
        _ options: ConnectionOptions,
        env: (String) -> String?,
        file: ConfigFile
    ) throws(CLIFailure) -> LeagueSlug {
        let layers: [(String?, String)] = [
            (options.league, "--league"), (env("GOAL_LEAGUE"), "GOAL_LEAGUE"), (file.league, "the config file"),
        ]
        for case let (text?, source) in layers {
            do {
                return try LeagueSlug(validating: text)
            } catch {
                throw .usage(leagueProblem(text, source: source) ?? "\(error)")
            }
        }
        return .default
    }

    /// What is wrong with a league id, or nil when it is one.
    static func leagueProblem(_ text: String, source: String) -> String? {
        guard !LeagueSlug.isValid(text) else { return nil }
        return "\(source) \"\(TerminalText.escape(text))\" is not a league id: use 1–\(LeagueSlug.maximumLength) "
            + "lowercase letters, digits and single hyphens (e.g. office-berlin); goal-client leagues lists them"
    }

    /// Checks the trust material before anything connects, so a wrong value is a usage error (exit 2) with a
    /// sentence, not a TLS failure: a CA file that does not exist or cannot be read, a fingerprint that is not 64 hex
    /// digits.
    /// - Throws: `CLIFailure.usage` naming the value and where it came from.
    static func checkTrust(
        _ security: TransportSecurity,
        options: ConnectionOptions,
        env: (String) -> String?
    ) throws(CLIFailure) {
        switch security {
        case .caFile(let path):
            let source =
                options.caFile != nil ? "--ca-file" : env("GOAL_CA_FILE") != nil ? "GOAL_CA_FILE" : "the config file"
            if let problem = caFileProblem(path, source: source) { throw .usage(problem) }
        case .pinnedFingerprint(let text):
            let source =
                options.fingerprint != nil
                ? "--fingerprint" : env("GOAL_FINGERPRINT") != nil ? "GOAL_FINGERPRINT" : "the config file"
            if let problem = fingerprintProblem(text, source: source) { throw .usage(problem) }
        case .caPEM, .systemTrust, .insecure:
            break
        }
    }

    /// What is wrong with a CA file path, or nil when it names a readable file.
    static func caFileProblem(_ path: String, source: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return "no CA file at \(TerminalText.escape(path)) (from \(source)); give the CA certificate goald serve "
                + "prints (its \"CA certificate:\" line, <state directory>/tls/ca.pem)"
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "cannot read the CA file \(TerminalText.escape(path)) (from \(source)): permission denied"
        }
        let text = try? String(contentsOfFile: path, encoding: .utf8)  // not UTF-8 (a DER file): nil, answered below
        guard let text, text.contains("-----BEGIN CERTIFICATE-----") else {
            return "\(TerminalText.escape(path)) (from \(source)) holds no PEM certificate; give the CA certificate "
                + "goald serve prints (its \"CA certificate:\" line, <state directory>/tls/ca.pem)"
        }
        return nil
    }

    /// What is wrong with a pinned fingerprint, or nil when it is 64 hex digits (colons allowed).
    static func fingerprintProblem(_ text: String, source: String) -> String? {
        do {
            _ = try CertificateFingerprint(parsing: text)
            return nil
        } catch {
            return "\(source) \"\(TerminalText.escape(text))\" is not a certificate fingerprint: it must be the "
                + "SHA-256 in hex, 64 digits (colons allowed), as goald serve prints it (\"TLS fingerprint:\")"
        }
    }

    /// Flags win over the environment, which wins over the file; with no trust material the system store is used.
    static func resolveSecurity(
        _ options: ConnectionOptions,
        env: (String) -> String?,
        file: ConfigFile
    ) -> TransportSecurity {
        if options.insecure { return .insecure }
        if let ca = options.caFile { return .caFile(ca) }
        if let pin = options.fingerprint { return .pinnedFingerprint(pin) }
        if let ca = env("GOAL_CA_FILE") { return .caFile(ca) }
        if let pin = env("GOAL_FINGERPRINT") { return .pinnedFingerprint(pin) }
        if let ca = file.caFile { return .caFile(ca) }
        if let pin = file.fingerprint { return .pinnedFingerprint(pin) }
        if file.insecure { return .insecure }
        return .systemTrust
    }
}
