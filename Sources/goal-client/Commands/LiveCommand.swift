import ArgumentParser
import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalWire

/// `goal-client` with no subcommand: the full-screen terminal UI (Matches · Rankings · Players).
///
/// Connects first (so a bad URL, trust or token fails at once with exit code 3 or 4, in plain text), then takes
/// over the terminal until `q`, Ctrl-C, SIGTERM/SIGHUP or end of input; the terminal is restored on every path.
/// When no server answers but this login has a saved league, the UI opens on it and goes live once a server
/// answers (the client keeps reconnecting); edits made meanwhile are queued in the saved outbox.
///
/// `l` switches leagues: the session of this league ends (its state saved) and a session and UI on the chosen
/// league follow, with that league's own saved state, as `goal-client --league ID` would.
struct Live: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "The full-screen live UI (the default): tabs Matches · Rankings · Players; ? shows the keys."
    )
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        var settings = try ClientSettings.resolve(connection)
        while let next = try await Self.run(settings) {
            settings.league = next.isDefault ? nil : next
        }
    }

    /// One league's session and UI. - Returns: the league the user switched to, or nil when the UI quit.
    static func run(_ settings: ClientSettings) async throws -> LeagueSlug? {
        let session = try LeagueSession.make(settings, presence: .all, persistent: true)
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
        let environment = ProcessInfo.processInfo.environment
        let colors = (environment["NO_COLOR"] ?? "").isEmpty
        let switching = LeagueSwitching(current: settings.league ?? .default) {
            do throws(CLIFailure) {
                return .success(try await LeagueDirectory.list(settings))
            } catch {
                return .failure(error)
            }
        }
        let next: LeagueSlug?
        do {
            let highlight = try Self.highlightSeconds(environment["GOAL_HIGHLIGHT_SECONDS"])
            next = try await Self.runUI(
                session: session,
                colors: colors,
                highlightSeconds: highlight,
                leagues: switching
            )
        } catch {
            await session.finish()
            throw error
        }
        await session.finish()
        return next
    }

    /// How long a row someone else changed stays highlighted: `GOAL_HIGHLIGHT_SECONDS` (0.1 to 3600), else 2.
    /// - Throws: `CLIFailure.usage` for any other value.
    static func highlightSeconds(_ text: String?) throws(CLIFailure) -> Double {
        guard let text else { return 2 }
        guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
            throw .usage("GOAL_HIGHLIGHT_SECONDS is \"\(text)\": it must be a number of seconds from 0.1 to 3600")
        }
        return seconds
    }

    /// Runs the UI on the main actor until it quits. - Returns: the league chosen in the switcher, if any.
    @MainActor
    static func runUI(
        session: LeagueSession,
        colors: Bool,
        highlightSeconds: Double,
        leagues: LeagueSwitching? = nil
    ) async throws(CLIFailure) -> LeagueSlug? {
        let store = LiveLeagueStore(client: session.client, deliveryScheduler: MainScheduler())
        let app = LiveApp(store: store, colors: colors, highlightSeconds: highlightSeconds)
        app.leagueSwitching = leagues
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
        return app.switchedLeague
    }
}
