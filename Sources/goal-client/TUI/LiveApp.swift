import Dispatch
import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalViewModels

#if canImport(Glibc)
import Glibc
#endif

/// The full-screen UI: tabs Matches · Rankings · Players over the view models, a status line, a banner for
/// alerts, rows changed by someone else highlighted briefly, pending edits marked.
///
/// The view layer only binds view-model outputs (rows, titles, status texts, alerts) and forwards keys to their
/// inputs (actions, properties); it holds no domain logic. Input (stdin, SIGWINCH, SIGINT/SIGTERM/SIGHUP) arrives
/// through DispatchSources on the main queue, which therefore never blocks.
///
/// Threading: `@MainActor`. Lifetime: `start()` → … → `quit()`, which restores the terminal and calls `onQuit`.
@MainActor
final class LiveApp {
    enum Tab: Int, CaseIterable {
        case matches, rankings, players
        var title: String { ["Matches", "Rankings", "Players"][rawValue] }
    }

    enum Mode {
        case browse
        case help
        /// The match the user chose to delete, as they saw it (the prompt and `y` follow it, not a row).
        case confirmDelete(ShownEntity<MatchID>)
        case newPlayer
        /// Renaming a player as the user saw it: the name typed so far.
        case renamePlayer(ShownEntity<PlayerID>, String)
        /// The player the user chose to delete, as they saw it.
        case confirmDeletePlayer(ShownEntity<PlayerID>)
        case edit(EditForm)
        /// The league switcher's list (`leaguePicker`).
        case leagues
    }

    let store: LiveLeagueStore
    let matches: MatchesViewModel
    let rankings: RankingsViewModel
    let players: ManagePlayersViewModel
    let connection: ConnectionViewModel
    let terminal = Terminal()
    let renderer: ScreenRenderer
    var tab: Tab = .matches
    /// The side `+`/`-` score on the Matches tab (←/→ switch it).
    var scoringSide: Side = .home
    var mode: Mode = .browse
    var banner: (text: String, until: Date)?
    /// How long a row someone else changed stays highlighted (`GOAL_HIGHLIGHT_SECONDS`, default 2).
    let highlightSeconds: Double
    /// Rows someone else changed, highlighted until the date.
    var changed: [String: Date] = [:]
    /// The history pane under the list (`h`), when open (LiveApp+History.swift).
    var historyPane: HistoryPane?
    /// How to switch leagues (nil: the UI cannot list them); set before `start()`.
    var leagueSwitching: LeagueSwitching?
    /// The league switcher's list while it is open (LiveApp+Leagues.swift).
    var leaguePicker: LeaguePicker?
    /// The league the user chose in the switcher; set just before `quit()`.
    var switchedLeague: LeagueSlug?
    var onQuit: () -> Void = {}
    var decoder = KeyDecoder()
    var sources: [any DispatchSourceProtocol] = []
    private var needsDisplay = false
    private let lifetime = Lifetime.Token()

    /// - Parameter highlightSeconds: How long a row someone else changed stays highlighted.
    init(store: LiveLeagueStore, colors: Bool, highlightSeconds: Double) {
        self.store = store
        self.highlightSeconds = highlightSeconds
        matches = MatchesViewModel(store: store)
        rankings = RankingsViewModel(store: store)
        players = ManagePlayersViewModel(store: store)
        let client = store.client
        connection = ConnectionViewModel(store: store, clock: QueueScheduler.main) { client.reconnectNow() }
        renderer = ScreenRenderer(colors: colors)
    }

    /// Enters full-screen mode, binds the view models and starts reading input.
    func start() throws(CLIFailure) {
        try terminal.enter()
        bind()
        startInput()
        matches.active.value = true
        rankings.active.value = true
        players.active.value = true
        setNeedsDisplay()
    }

    /// Restores the terminal and ends the UI.
    func quit() {
        guard terminal.isActive else { return }
        for source in sources { source.cancel() }
        sources = []
        terminal.restore()
        onQuit()
    }

    private func bind() {
        let lifetime = Lifetime(self.lifetime)
        let redraw: () -> Void = { [weak self] in self?.setNeedsDisplay() }
        lifetime += matches.contentChanges.observeValues { _ in redraw() }
        lifetime += rankings.contentChanges.observeValues { _ in redraw() }
        lifetime += players.contentChanges.observeValues { _ in redraw() }
        lifetime += connection.summary.signal.observeValues { _ in redraw() }
        lifetime += connection.phase.signal.observeValues { _ in redraw() }
        lifetime += connection.roundTripText.signal.observeValues { _ in redraw() }
        lifetime += connection.revisionText.signal.observeValues { _ in redraw() }
        lifetime += connection.pendingCount.signal.observeValues { _ in redraw() }
        lifetime += players.playerName.signal.observeValues { _ in redraw() }
        let messages = [
            matches.alertMessages, rankings.alertMessages, players.alertMessages, players.notices,
            connection.alertMessages,
        ]
        for alerts in messages {
            lifetime += alerts.observeValues { [weak self] in self?.show(alert: $0) }
        }
        lifetime += players.saveAction.values.observeValues { [weak self] _ in
            guard let self, case .newPlayer = mode else { return }
            mode = .browse
            setNeedsDisplay()
        }
        lifetime += players.renameAction.values.observeValues { [weak self] _ in
            guard let self, case .renamePlayer = mode else { return }
            mode = .browse
            setNeedsDisplay()
        }
        lifetime += store.presence.signal.observeValues { _ in redraw() }
        lifetime += store.updates.observeValues { [weak self] update in self?.highlight(update) }
    }

    /// Marks the rows of another client's changeset for `highlightSeconds`.
    private func highlight(_ update: ReplicaUpdate) {
        guard case .changeset(let changeset) = update, changeset.mutationID?.instance != store.clientInstance else {
            return
        }
        let until = Date().addingTimeInterval(highlightSeconds)
        for change in changeset.changes {
            switch change {
            case .matchUpserted(let match): changed[match.id.description] = until
            case .playerUpserted(let player): changed[player.id.description] = until
            case .ratingUpdated(let rating): changed[rating.playerID.description] = until
            case .matchDeleted, .playerDeleted: break
            }
        }
        setNeedsDisplay()
        DispatchQueue.main.asyncAfter(deadline: .now() + highlightSeconds + 0.05) { [weak self] in
            MainActor.assumeIsolated { self?.setNeedsDisplay() }
        }
    }

    /// Shows an alert in the banner for eight seconds.
    func show(alert: String) {
        banner = (TerminalText.escape(alert), Date().addingTimeInterval(8))
        setNeedsDisplay()
        DispatchQueue.main.asyncAfter(deadline: .now() + 8.05) { [weak self] in
            MainActor.assumeIsolated { self?.setNeedsDisplay() }
        }
    }

    /// Schedules one redraw on the main queue (coalesced).
    func setNeedsDisplay() {
        guard !needsDisplay else { return }
        needsDisplay = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.display() }
        }
    }

    /// Draws the current frame now.
    private func display() {
        needsDisplay = false
        guard terminal.isActive else { return }
        let size = Terminal.size
        announcePresence()
        renderer.draw(frame(columns: size.columns, rows: size.rows), columns: size.columns, rows: size.rows)
    }
}
