import Foundation
import GoalTransport

/// Everything needed to reach a goald, resolved in layers: the config file, then environment (`GOAL_SERVER`,
/// `GOAL_CA_FILE`, `GOAL_FINGERPRINT`, `GOAL_TOKEN`), then flags. Value type, `Sendable`.
struct ClientSettings: Sendable {
    var endpoint: ServerEndpoint
    var serverURL: String
    var security: TransportSecurity
    var token: String

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
        guard let url = options.server ?? env("GOAL_SERVER") ?? file.server else {
            throw .usage("no server: pass --server wss://HOST:PORT, set GOAL_SERVER, or run goal-client login")
        }
        let endpoint: ServerEndpoint
        do {
            endpoint = try ServerEndpoint(parsing: url)
        } catch {
            throw .usage("\(error); use wss://HOST:PORT as goald serve prints it")
        }
        let security = resolveSecurity(options, env: env, file: file)
        guard let token = env("GOAL_TOKEN") ?? file.token else {
            throw .unauthorized(
                "no token: set GOAL_TOKEN or run goal-client login (an admin makes one with goald token create)"
            )
        }
        return ClientSettings(endpoint: endpoint, serverURL: url, security: security, token: token)
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
