import GoalClient
import GoalReactive
import GoalWire

/// Runs a command body with a live session: resolve settings, connect, run, stop (on every path).
enum CommandSession {
    /// - Parameters:
    ///   - options: Server and trust flags.
    ///   - body: The command, given the session and a lookup over the replica as it was once live.
    static func run<T>(
        _ options: ConnectionOptions,
        stream: ClientMessage.StreamSelection = .all,
        _ body: (LeagueSession, LeagueLookup) async throws(CLIFailure) -> T
    ) async throws(CLIFailure) -> T {
        let settings = try ClientSettings.resolve(options)
        let session = try LeagueSession.make(settings, stream: stream)
        try await session.connect()
        do {
            let result = try await body(session, LeagueLookup(replica: session.client.replica.value))
            session.stop()
            return result
        } catch {
            session.stop()
            throw error
        }
    }
}
