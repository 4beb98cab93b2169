@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// Issue 16, point 3: a conflict is resolved from the form (mine vs theirs; take theirs, keep mine, cancel), and
/// the form never offers a save that can only conflict again.
@MainActor
@Suite("EditMatchViewModel: resolving a conflict from the form", .slotted)
struct FormConflictTests {
    let mock = MockLeague()

    /// Match 1 is [C, A] vs [D, B] 2 : 1. The other client sets home goals to 5 and away goals to 4 after my form
    /// opened; I set home goals to 3 and save: a conflict on home goals.
    func conflicted() -> (InMemoryLeagueStore, EditMatchViewModel) {
        let mine = mock.store("mine")
        let theirs = mock.store("theirs")
        let form = EditMatchViewModel(store: mine, matchID: mock.match1)
        _ = Outcome(theirs.submit(.updateMatch(id: mock.match1, MatchUpdate(homeGoals: 5, awayGoals: 4)), base: 6))
        form.homeGoals.value = 3
        _ = Outcome(form.saveAction.apply())
        return (mine, form)
    }

    @Test func aConflictShowsMineVersusTheirsAndDisablesSave() {
        let (_, form) = conflicted()
        #expect(form.conflict.value?.fields == [FormConflict.Field(label: "home goals", mine: "3", theirs: "5")])
        #expect(form.saveAction.isEnabled.value == false, "saving again on the old base could only conflict again")
        #expect(form.base == 6)
    }

    @Test func takeTheirsReloadsTheMatchAsItIsNow() {
        let (mine, form) = conflicted()
        form.takeTheirs()
        #expect(form.conflict.value == nil)
        #expect(form.base == 7)
        #expect(form.formattedHomeGoals.value == "5")
        #expect(form.formattedAwayGoals.value == "4")
        #expect(form.hasChanges.value == false)
        #expect(mine.replica.value.matches[mock.match1]?.homeGoals == 5)
    }

    @Test func keepMineSavesMyFieldOnTheNewBaseAndKeepsTheirOtherChanges() {
        let (mine, form) = conflicted()
        form.keepMine()
        #expect(form.conflict.value == nil)
        #expect(form.base == 7)
        #expect(form.formattedHomeGoals.value == "3")
        #expect(form.formattedAwayGoals.value == "4", "their away goals, which I never touched, are kept")
        #expect(form.saveAction.isEnabled.value)
        let saved = Outcome(form.saveAction.apply())
        #expect(saved.completed)
        #expect(mine.submitted.last?.action == .updateMatch(id: mock.match1, MatchUpdate(homeGoals: 3)))
        #expect(mine.submitted.last?.base == 7)
        #expect(mine.replica.value.matches[mock.match1]?.homeGoals == 3)
        #expect(mine.replica.value.matches[mock.match1]?.awayGoals == 4)
    }
}
