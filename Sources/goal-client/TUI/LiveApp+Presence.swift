import GoalClient
import GoalModel
import GoalViewModels

/// What the UI announces: `editing <match>` while an existing match's edit form is open, `viewing` otherwise
/// (the client sends only changes, and the server rate-limits them).
extension LiveApp {
    func announcePresence() {
        if case .edit(let form) = mode, !form.viewModel.isNewMatch {
            store.announce(.editing(form.viewModel.matchID))
        } else {
            store.announce(.viewing(nil))
        }
    }
}
