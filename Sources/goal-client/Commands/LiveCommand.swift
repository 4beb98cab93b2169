import ArgumentParser
import Foundation
import GoalClient
import GoalReactive

/// `goal-client` with no subcommand: the full-screen terminal UI (Matches · Rankings · Players).
///
/// Connects first (so a bad URL, trust or token fails at once with exit code 3 or 4, in plain text), then takes
/// over the terminal until `q`, Ctrl-C, SIGTERM/SIGHUP or end of input; the terminal is restored on every path.
/// When no server answers but this login has a saved league, the UI opens on it and goes live once a server
/// answers (the client keeps reconnecting); edits made meanwhile are queued in the saved outbox.
struct Live: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "The full-screen live UI (the default): tabs Matches · Rankings · Players; ? shows the keys."
    )
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let settings = try ClientSettings.resolve(connection)
        let session = try LeagueSession.make(settings, persistent: true)
        switch await session.attemptConnection() {
        case .live:
            break
        case .unreachable(let failure, _):
            // Offline start: with a saved league the UI opens on it (status reconnecting) and goes live when a
            // server answers; edits queue meanwhile. Without one the connection error stands.
            guard session.client.replica.value.hasSynced else {
                await session.finish()
                throw failure
            }
            session.client.start()
        case .refused(let failure):
            await session.finish()
            throw failure
        }
        let colors = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        do {
            try await Self.runUI(session: session, colors: colors)
        } catch {
            await session.finish()
            throw error
        }
        await session.finish()
    }

    /// Runs the UI on the main actor until it quits.
    @MainActor
    static func runUI(session: LeagueSession, colors: Bool) async throws(CLIFailure) {
        let store = LiveLeagueStore(client: session.client, deliveryScheduler: MainScheduler())
        let app = LiveApp(store: store, colors: colors)
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<CLIFailure?, Never>) in
            app.onQuit = { continuation.resume(returning: Optional<CLIFailure>.none) }
            do throws(CLIFailure) {
                try app.start()
            } catch {
                app.onQuit = {}
                continuation.resume(returning: CLIFailure?.some(error))
            }
        }
        if let failure { throw failure }
    }
}
