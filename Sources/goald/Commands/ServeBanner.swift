import GoalServer
import GoalWire

/// What `goald serve` prints once it listens: everything a newcomer needs to connect. Pure, so tests check it.
struct ServeBanner: Sendable {
    var configuration: ServerConfiguration
    var addresses: DaemonAddresses
    var fingerprint: String
    var authorityCertificatePath: String?
    /// The admin token's secret when this start created it.
    var firstAdminToken: String?
    /// True when standard output is a terminal: only then is a new admin token's secret printed.
    var showSecret: Bool
    /// The PostgreSQL store, when the league is not in the state directory's SQLite file.
    var externalStore: String? = nil

    var lines: [String] {
        let url = ConnectInstructions.serverURL(host: addresses.host, port: addresses.port)
        var lines = [
            "goald is listening on \(url)\(WireProtocol.path)",
            "  state directory:  \(configuration.stateDirectory)",
            "  node id:          \(addresses.nodeID)",
        ]
        if let externalStore {
            lines.append("  store:            \(externalStore)")
        }
        if let authorityCertificatePath {
            lines.append("  CA certificate:   \(authorityCertificatePath)  (development CA made by goald)")
        }
        lines.append("  TLS fingerprint:  \(fingerprint)  (SHA-256 of the server certificate)")
        if let metricsPort = addresses.metricsPort, let metrics = configuration.metricsListener {
            lines.append(
                "  metrics:          http://\(ConnectInstructions.dialHost(metrics.host)):\(metricsPort)/metrics"
            )
        }
        lines.append("  admin token file: \(configuration.adminTokenPath)")
        if let firstAdminToken {
            if showSecret {
                lines.append("  new admin token:  \(firstAdminToken)  (shown once; also in the file above, mode 0600)")
            } else {
                lines.append("  a new admin token was written to the file above (mode 0600)")
            }
        }
        let login = ConnectInstructions.loginCommand(
            configuration: configuration,
            host: addresses.host,
            port: addresses.port
        )
        lines += [
            "",
            "Connect:",
            "  \(login) < \(configuration.adminTokenPath)",
            "  goal-client",
            "  or a browser: https://\(ConnectInstructions.dialHost(addresses.host)):\(addresses.port)/  "
                + "(the league page; trust the CA above, then paste a token)",
        ]
        if authorityCertificatePath == nil {
            lines.append("  (or pin this certificate: --fingerprint \(fingerprint))")
        }
        if externalStore == nil {
            // The state directory is named: without it, `token create` would use the default one, not this daemon's.
            lines.append(
                "More tokens: goald token create --state-dir \(configuration.stateDirectory) --name NAME "
                    + "--role viewer|editor|admin"
            )
        } else {
            lines.append("More tokens: goald token create --store URL --name NAME --role viewer|editor|admin")
        }
        return lines
    }
}
