import GoalClient
import GoalModel
import GoalTransport
import GoalWire

/// The leagues the login's token may see, read over goald's HTTP API (`GET /api/v1/leagues`, GoalTransport's
/// `LeagueDirectoryClient`) with the same servers, trust and token as the stream: the servers are asked in failover
/// order until one answers. For `goal-client leagues` and the UI's league switcher.
///
/// Pure functions over the network; thread-safe.
enum LeagueDirectory {
    /// The leagues, in the order goald lists them.
    /// - Throws: `CLIFailure` 3 (no server answered, TLS), 4 (the token was refused), or 3 for an answer this
    ///   goal-client cannot read (an older goald without leagues).
    static func list(_ settings: ClientSettings) async throws(CLIFailure) -> [LeagueListing] {
        var lastFailure: TransportFailure?
        for (endpoint, url) in zip(settings.endpoints, settings.serverURLs) {
            let directory: LeagueDirectoryClient
            do {
                directory = try LeagueDirectoryClient(
                    endpoint: endpoint,
                    security: settings.security,
                    token: settings.token
                )
            } catch {
                throw .usage("\(error.message); check --ca-file / --fingerprint (goald serve prints both)")
            }
            do {
                return try await directory.listLeagues()
            } catch {
                switch error {
                case .transport(let failure):
                    lastFailure = failure  // this server is down or cut: ask the next
                case .status(401, let body), .status(403, let body):
                    throw .unauthorized(
                        "\(TerminalText.escape(url)) refused the token: \(TerminalText.escape(body.message))"
                    )
                case .status(404, _):
                    throw .cannotConnect(
                        "\(TerminalText.escape(url)) has no league list (GET /api/v1/leagues): it is a goald older "
                            + "than leagues, which serves its one league to every client"
                    )
                case .status, .malformedResponse:
                    throw .cannotConnect("\(TerminalText.escape(url)) answered the league list with \(error)")
                }
            }
        }
        let detail = lastFailure.map { ": " + CLIFailure.connectionDetail($0.message) } ?? ""
        let hint =
            lastFailure?.kind == .tls
            ? "check --ca-file / --fingerprint (goald serve prints both)" : "check that goald runs there"
        throw .cannotConnect("cannot connect to \(settings.serverList)\(detail); \(hint)")
    }
}
