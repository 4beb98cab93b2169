import Foundation
import GoalModel
import GoalWire

/// What the UI needs to switch leagues: the league it shows and how to list the others. Value type, `Sendable`.
struct LeagueSwitching: Sendable {
    /// The league the UI follows.
    let current: LeagueSlug
    /// Lists the leagues the token may see (`LeagueDirectory.list`).
    let list: @Sendable () async -> Result<[LeagueListing], CLIFailure>
}

/// The league switcher (`l`): a list of the leagues the token may see (`LeaguePicker`); choosing one ends this UI
/// with that league (`switchedLeague`), and `Live` opens a session and a UI on it, with its own saved state.
extension LiveApp {
    /// Opens the list and asks goald for the leagues.
    func openLeaguePicker() {
        guard let leagueSwitching else {
            show(alert: "this goal-client cannot list leagues here")
            return
        }
        leaguePicker = LeaguePicker(current: leagueSwitching.current)
        mode = .leagues
        let list = leagueSwitching.list
        Task { @MainActor [weak self] in
            let result = await list()
            guard let self, case .leagues = mode, var picker = leaguePicker else { return }
            switch result {
            case .success(let leagues): picker.loaded(leagues)
            case .failure(let failure): picker.failed(failure.message)
            }
            leaguePicker = picker
            setNeedsDisplay()
        }
    }

    /// A key while the list is open.
    func handleLeaguePicker(_ key: Key) {
        guard var picker = leaguePicker else {
            mode = .browse
            return
        }
        let outcome = picker.handle(key)
        leaguePicker = picker
        switch outcome {
        case .stay:
            break
        case .close:
            leaguePicker = nil
            mode = .browse
        case .choose(let league):
            leaguePicker = nil
            mode = .browse
            switchedLeague = league
            quit()
        }
    }
}
