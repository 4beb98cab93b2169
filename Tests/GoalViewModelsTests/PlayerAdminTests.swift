@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// Issue 16, point 6: the Players tab renames and deletes (admin) with the CLI's messages; a picker adds a
/// player on the spot and chooses it.
@MainActor
@Suite("Players: rename, delete, add on the spot", .slotted)
struct PlayerAdminTests {
    let mock = MockLeague()

    @Test func renameSaysWhatTheCLISaysAndTheCursorFollowsThePlayer() {
        let store = mock.store()
        let players = ManagePlayersViewModel(store: store)
        let notices = Recorder(players.notices)
        players.active.value = true
        players.select(mock.a)
        guard let shown = players.shownPlayerAtCursor else {
            Issue.record("no selection")
            return
        }
        _ = Outcome(players.renameAction.apply(PlayerRename(player: shown, name: "Zed")))
        #expect(store.submitted.map(\.action) == [.renamePlayer(id: mock.a, name: "Zed")])
        #expect(store.submitted.map(\.base) == [shown.revision])
        #expect(notices.values == ["renamed player \(mock.a.shortID) to Zed: committed at r7"])
        #expect(players.rows.map(\.name) == ["B", "C", "D", "Zed"])
        #expect(players.cursor.value.id == mock.a)
    }

    @Test func aRenameToATakenNameIsRefusedInTheBanner() {
        let store = mock.store()
        let players = ManagePlayersViewModel(store: store)
        let alerts = Recorder(players.alertMessages)
        players.active.value = true
        players.select(mock.a)
        guard let shown = players.shownPlayerAtCursor else { return }
        _ = Outcome(players.renameAction.apply(PlayerRename(player: shown, name: "b")))
        #expect(alerts.values.count == 1)
        #expect(alerts.values.first?.hasPrefix("refused (name_taken): ") == true, "\(alerts.values)")
    }

    @Test func deleteIsRefusedWhileAMatchReferencesThePlayerAndWorksOtherwise() {
        let store = mock.store()
        let players = ManagePlayersViewModel(store: store)
        let alerts = Recorder(players.alertMessages)
        let notices = Recorder(players.notices)
        players.active.value = true
        players.select(mock.a)
        guard let inUse = players.shownPlayerAtCursor else { return }
        _ = Outcome(players.deleteAction.apply(inUse))
        #expect(alerts.values.count == 1)
        #expect(alerts.values.first?.hasPrefix("refused (player_in_use): ") == true, "\(alerts.values)")
        // A player without matches goes, and this client's own delete is not announced as someone else's.
        players.playerName.value = "Eve"
        _ = Outcome(players.saveAction.apply())
        guard let eve = store.replica.value.players.values.first(where: { $0.name == "Eve" })?.id else {
            Issue.record("Eve was not created")
            return
        }
        players.select(eve)
        guard let shownEve = players.shownPlayerAtCursor else { return }
        _ = Outcome(players.deleteAction.apply(shownEve))
        #expect(store.replica.value.players[eve] == nil)
        #expect(notices.values == ["deleted player \(eve.shortID) (Eve): committed at r8"])
        #expect(alerts.values.count == 1, "no 'deleted by someone else' for our own delete")
    }

    @Test func aViewerCannotDeleteAndIsToldWhatToDo() {
        let viewer = mock.store("viewer", role: .viewer)
        let players = ManagePlayersViewModel(store: viewer)
        let alerts = Recorder(players.alertMessages)
        players.active.value = true
        guard let shown = players.shownPlayerAtCursor else { return }
        _ = Outcome(players.deleteAction.apply(shown))
        #expect(alerts.values.first?.hasPrefix("refused (unauthorized): ") == true, "\(alerts.values)")
        #expect(alerts.values.first?.hasSuffix("ask an admin for an editor token") == true)
    }

    @Test func aPickerAddsAPlayerOnTheSpotAndChoosesItForItsSide() {
        let store = mock.store()
        let form = EditMatchViewModel(store: store)
        let home = form.manageHomePlayersViewModel()
        home.active.value = true
        home.playerName.value = "Eve"
        _ = Outcome(home.saveAction.apply())
        guard let eve = store.replica.value.players.values.first(where: { $0.name == "Eve" })?.id else {
            Issue.record("Eve was not created")
            return
        }
        #expect(home.rows.contains { $0.id == eve })
        #expect(home.selectedPlayers.value == [eve])
        #expect(form.selectedHomePlayers.value == [eve])
        #expect(form.homePlayersString.value == "Eve")
    }
}
