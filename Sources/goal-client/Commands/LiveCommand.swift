import ArgumentParser
import Foundation
import GoalClient
import GoalReactive

/// `goal-client` with no subcommand: the full-screen terminal UI (Matches · Rankings · Players).
///
/// Connects first (so a bad URL, trust or token fails at once with exit code 3 or 4, in plain text), then takes
/// over the terminal until `q`, Ctrl-C, SIGTERM/SIGHUP or end of input; the terminal is restored on every path.
struct Live: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "The full-screen live UI (the default): tabs Matches · Rankings · Players; ? shows the keys."
    )
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let settings = try ClientSettings.resolve(connection)
        let session = try LeagueSession.make(settings)
        try await session.connect()
        let colors = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        try await Self.runUI(session: session, colors: colors)
        session.stop()
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
