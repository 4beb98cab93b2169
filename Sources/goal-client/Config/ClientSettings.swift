import Foundation
import GoalTransport

/// Everything needed to reach a goald league, resolved in layers: the config file, then environment (`GOAL_SERVER`,
/// `GOAL_CA_FILE`, `GOAL_FINGERPRINT`, `GOAL_TOKEN`), then flags. The servers are a list, in failover order: the
/// nodes of one league (one `--server` per node, or `GOAL_SERVER=wss://a:7443,wss://b:7443`). Value type,
/// `Sendable`.
struct ClientSettings: Sendable {
    /// The servers, in failover order (never empty), parsed.
    var endpoints: [ServerEndpoint]
    /// The same servers as the user wrote them (for messages and status).
    var serverURLs: [String]
    var security: TransportSecurity
    var token: String

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
        guard let token = env("GOAL_TOKEN") ?? file.token else {
            throw .unauthorized(
                "no token: set GOAL_TOKEN or run goal-client login (an admin makes one with goald token create)"
            )
        }
        return ClientSettings(endpoints: endpoints, serverURLs: urls, security: security, token: token)
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
