@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// Issue 14, point 7: actions name entities (with the revision the user saw), never row numbers, and the
/// selection follows its entity across live updates.
@MainActor
@Suite("Actions name entities; the cursor follows its entity", .slotted)
struct EntityKeyedActionsTests {
    let mock = MockLeague()

    /// Another client creates a match (it lands at the top of every list, newest first).
    @discardableResult
    func createMatch(by store: InMemoryLeagueStore, goals: Int) -> MatchID {
        let id = MatchID()
        let action = MutationAction.createMatch(
            id: id,
            homePlayers: [mock.d],
            awayPlayers: [mock.b],
            homeGoals: goals,
            awayGoals: 0
        )
        let outcome = Outcome(store.submit(action, base: store.replica.value.revision))
        #expect(outcome.completed)
        return id
    }

    @Test func aDeletePromptOpenOnRowTwoDeletesItsMatchWhenAnotherArrivesAbove() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let third = createMatch(by: theirs, goals: 7)
        let matches = MatchesViewModel(store: mine)
        matches.active.value = true
        #expect(matches.rows.map(\.id) == [third, mock.match1, mock.match2])

        // The user selects row 2 and presses d: the prompt names match 2 as seen at revision 7.
        matches.moveCursor(by: 2)
        guard let prompt = matches.selectedMatch else {
            Issue.record("no selection")
            return
        }
        #expect(prompt == ShownEntity(id: mock.match2, revision: 7))
        let promptText = matches.row(for: prompt.id).map { "\($0.homePlayers) \($0.result) \($0.awayPlayers)" }
        #expect(promptText == "C, B 0 : 1 A, D")

        // Someone else's match arrives above the cursor while the prompt is open.
        let fourth = createMatch(by: theirs, goals: 9)
        #expect(matches.rows.map(\.id) == [fourth, third, mock.match1, mock.match2])
        #expect(matches.rows[2].id == mock.match1, "row 2 is now someone else's match")
        #expect(matches.cursor.value.id == mock.match2)
        #expect(matches.cursor.value.row == 3, "the selection followed its match down")
        let textNow = matches.row(for: prompt.id).map { "\($0.homePlayers) \($0.result) \($0.awayPlayers)" }
        #expect(textNow == promptText, "the prompt's text did not change under the user")

        // y: exactly the match the prompt named is deleted, nobody else's.
        let outcome = Outcome(matches.deleteAction.apply(prompt))
        #expect(outcome.completed)
        #expect(mine.submitted.map(\.action) == [.deleteMatch(id: mock.match2)])
        #expect(mine.submitted.map(\.base) == [7])
        #expect(Set(mine.replica.value.matches.keys) == [fourth, third, mock.match1])
        #expect(matches.rows.map(\.id) == [fourth, third, mock.match1])
        #expect(matches.cursor.value.id == mock.match1, "the selection moved to the neighbour")
        #expect(matches.cursor.value.removedByOther == nil, "our own delete is not flagged")
    }

    @Test func aDeleteOfAMatchChangedSinceTheUserSawItIsRefusedAsAConflict() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let matches = MatchesViewModel(store: mine)
        let alerts = Recorder(matches.alertMessages)
        matches.active.value = true
        guard let prompt = matches.selectedMatch else {
            Issue.record("no selection")
            return
        }
        #expect(prompt == ShownEntity(id: mock.match1, revision: 6))
        // Someone else scores on that match while the prompt is open.
        _ = Outcome(theirs.submit(.adjustGoals(id: mock.match1, side: .home, delta: 1), base: 6))
        let outcome = Outcome(matches.deleteAction.apply(prompt))
        guard case .producerFailed(let error) = outcome.error else {
            Issue.record("the delete was applied: \(String(describing: outcome.error))")
            return
        }
        #expect(error.code == .conflict)
        #expect(mine.replica.value.matches[mock.match1] != nil)
        #expect(alerts.values.count == 1)
        #expect(alerts.values.first?.hasPrefix("Someone else changed") == true, "\(alerts.values)")
    }

    @Test func theCursorFollowsItsMatchThroughInsertsAndMovesToANeighbourWhenSomeoneElseDeletesIt() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let matches = MatchesViewModel(store: mine)
        #expect(matches.cursor.value == ListCursor(), "an empty list has no selection")
        matches.active.value = true
        #expect(matches.cursor.value.id == mock.match1, "the first rows put it on the first row")
        matches.select(mock.match2)
        #expect(matches.cursor.value.row == 1)

        let third = createMatch(by: theirs, goals: 1)
        #expect(matches.cursor.value.id == mock.match2)
        #expect(matches.cursor.value.row == 2)

        // Someone else deletes the selected match (the last row): the cursor moves to the row before it.
        _ = Outcome(theirs.submit(.deleteMatch(id: mock.match2), base: theirs.replica.value.revision))
        #expect(matches.rows.map(\.id) == [third, mock.match1])
        #expect(matches.cursor.value.id == mock.match1)
        #expect(matches.cursor.value.row == 1)
        #expect(matches.cursor.value.removedByOther == mock.match2, "the UI can tell the user")

        // Deleting the selected first row moves it to the following row; an explicit move clears the flag.
        matches.select(third)
        #expect(matches.cursor.value.removedByOther == nil)
        _ = Outcome(theirs.submit(.deleteMatch(id: third), base: theirs.replica.value.revision))
        #expect(matches.cursor.value.id == mock.match1)
        #expect(matches.cursor.value.row == 0)
        #expect(matches.cursor.value.removedByOther == third)
        matches.moveCursor(by: 1)
        #expect(matches.cursor.value.removedByOther == nil)
        #expect(matches.cursor.value.row == 0, "clamped to the list")
    }

    @Test func thePlayerCursorFollowsItsPlayerWhenARenameMovesIt() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let players = ManagePlayersViewModel(store: mine)
        players.active.value = true
        #expect(players.rows.map(\.name) == ["A", "B", "C", "D"])
        players.select(mock.a)
        #expect(players.playerAtCursor == mock.a)
        _ = Outcome(theirs.submit(.renamePlayer(id: mock.a, name: "Zed"), base: theirs.replica.value.revision))
        #expect(players.rows.map(\.name) == ["B", "C", "D", "Zed"])
        #expect(players.cursor.value.id == mock.a)
        #expect(players.cursor.value.row == 3, "the cursor moved with its player")
        // Choosing is by id too: the player under the cursor is chosen, wherever its row is.
        players.togglePlayer(mock.a)
        #expect(players.selectedPlayers.value == [mock.a])
        #expect(players.isPlayerSelected(at: 3))
    }

    @Test func theRankingsCursorFollowsItsPlayerWhenTheRankingReorders() {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let rankings = RankingsViewModel(store: mine)
        rankings.active.value = true
        let before = rankings.rows.map(\.id)
        guard let last = before.last else {
            Issue.record("no rankings")
            return
        }
        rankings.select(last)
        // The last-ranked player wins a lot: they move up.
        let loser = mock.c == last ? mock.a : mock.c
        for _ in 0..<3 {
            let action = MutationAction.createMatch(
                id: MatchID(),
                homePlayers: [last],
                awayPlayers: [loser],
                homeGoals: 5,
                awayGoals: 0
            )
            _ = Outcome(theirs.submit(action, base: theirs.replica.value.revision))
        }
        let index = rankings.rows.firstIndex { $0.id == last }
        #expect(index != before.count - 1, "the player moved")
        #expect(rankings.cursor.value.id == last)
        #expect(rankings.cursor.value.row == index)
    }

    @Test func adjustGoalsActionScoresOnTheNamedMatch() {
        let mine = mock.store("mine")
        let matches = MatchesViewModel(store: mine)
        matches.active.value = true
        let outcome = Outcome(
            matches.adjustGoalsAction.apply(GoalAdjustment(match: mock.match2, side: .away, delta: 1))
        )
        #expect(outcome.completed)
        #expect(mine.submitted.map(\.action) == [.adjustGoals(id: mock.match2, side: .away, delta: 1)])
        #expect(mine.submitted.map(\.base) == [6])
        #expect(mine.replica.value.matches[mock.match2]?.awayGoals == 2)
        #expect(matches.row(for: mock.match2)?.result == "0 : 2")
    }

    @Test func quickPressesAllCountWhileTheServerHasNotAnswered() {
        let mine = mock.store("mine")
        let matches = MatchesViewModel(store: mine)
        matches.active.value = true
        mine.holdsMutations = true
        let press = GoalAdjustment(match: mock.match1, side: .home, delta: 1)
        let first = Outcome(matches.adjustGoalsAction.apply(press))
        let second = Outcome(matches.adjustGoalsAction.apply(press))
        #expect(first.completed)
        #expect(second.completed, "a second press is not refused while the first is in flight")
        #expect(mine.pendingMutations.value.count == 2)
        #expect(matches.row(for: mock.match1)?.isPending == true)
        mine.releaseHeldMutations()
        #expect(mine.replica.value.matches[mock.match1]?.homeGoals == 4)
        #expect(matches.row(for: mock.match1)?.isPending == false)
    }

    @Test func aRefusedAdjustmentRaisesAnAlert() {
        let mine = mock.store("mine")
        let matches = MatchesViewModel(store: mine)
        let alerts = Recorder(matches.alertMessages)
        matches.active.value = true
        // Match 2 is 0 : 1: one goal less at home would leave 0…999.
        _ = Outcome(matches.adjustGoalsAction.apply(GoalAdjustment(match: mock.match2, side: .home, delta: -1)))
        #expect(alerts.values.count == 1)
        #expect(mine.replica.value.matches[mock.match2]?.homeGoals == 0)
    }
}

/// `ListCursor`'s transitions, table by table.
@Suite("ListCursor", .slotted)
struct ListCursorTests {
    @Test func followsThroughInsertsMovesAndRemovals() {
        var cursor = ListCursor<String>()
        cursor.follow(from: [], to: ["a", "b", "c"], removedHere: { _ in false })
        #expect(cursor.id == "a" && cursor.row == 0)
        let selectedB = cursor.select("b", in: ["a", "b", "c"])
        #expect(selectedB)
        cursor.follow(from: ["a", "b", "c"], to: ["x", "a", "b", "c"], removedHere: { _ in false })
        #expect(cursor.id == "b" && cursor.row == 2)
        cursor.follow(from: ["x", "a", "b", "c"], to: ["b", "x", "a", "c"], removedHere: { _ in false })
        #expect(cursor.id == "b" && cursor.row == 0)
        // Removed together with its following neighbour: the next surviving following row.
        cursor.follow(from: ["b", "x", "a", "c"], to: ["a", "c"], removedHere: { _ in false })
        #expect(cursor.id == "a" && cursor.row == 0 && cursor.removedByOther == "b")
        let selectedC = cursor.select("c", in: ["a", "c"])
        #expect(selectedC)
        #expect(cursor.removedByOther == nil)
        cursor.follow(from: ["a", "c"], to: ["a"], removedHere: { $0 == "c" })
        #expect(cursor.id == "a" && cursor.row == 0 && cursor.removedByOther == nil)
        cursor.follow(from: ["a"], to: [], removedHere: { _ in false })
        #expect(cursor.id == nil && cursor.row == nil && cursor.removedByOther == "a")
        let selectedZ = cursor.select("z", in: ["a"])
        #expect(!selectedZ)
    }
}
