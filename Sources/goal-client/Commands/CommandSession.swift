import GoalClient
import GoalCommandLine
import GoalReactive
import GoalWire

/// Runs a command body with a session: resolve settings, open this login's saved state, connect, report the
/// edits earlier runs queued, run, stop and save (on every path).
///
/// When no server answers and a league was saved (`offline: .allowed`), the body runs on the saved league
/// instead, after one line on standard error (`OfflineNotice`); its mutations are then queued (exit code 6).
enum CommandSession {
    /// Whether a command may run on the saved league when no server answers.
    enum Offline {
        case allowed
        case refused
    }

    /// - Parameters:
    ///   - options: Server and trust flags.
    ///   - offline: `.refused` for commands that need the server itself (status, tail).
    ///   - body: The command, given the session and a lookup over the replica as it was once live (or saved).
    static func run<T>(
        _ options: ConnectionOptions,
        stream: ClientMessage.StreamSelection = .all,
        offline: Offline = .allowed,
        _ body: (LeagueSession, LeagueLookup) async throws(CLIFailure) -> T
    ) async throws(CLIFailure) -> T {
        let settings = try ClientSettings.resolve(options)
        let session = try LeagueSession.make(settings, stream: stream, persistent: true)
        switch await session.attemptConnection() {
        case .live:
            await QueuedEdits.report(session.client, window: session.retryWindow)
        case .unreachable(let failure, let tls):
            let saved = session.client.replica.value
            guard offline == .allowed, saved.hasSynced else {
                await session.finish()
                throw failure
            }
            Console.error(
                OfflineNotice.line(
                    replica: saved,
                    syncedAt: session.client.restoredSyncedAt,
                    server: session.serverName,
                    tls: tls,
                    queued: session.client.restoredMutations.count
                )
            )
        case .refused(let failure):
            await session.finish()
            throw failure
        }
        do {
            let result = try await body(session, LeagueLookup(replica: session.client.replica.value))
            await session.finish()
            return result
        } catch {
            await session.finish()
            throw error
        }
    }
}
