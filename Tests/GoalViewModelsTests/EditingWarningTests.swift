@_spi(Testing) import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import Testing

@testable import GoalViewModels

/// "Bob is editing this match" (issue 20 point 2): the edit form warns while someone else has the same match open,
/// before a conflict can happen; never for the user's own session, another match, a mere viewer, or a new match.
@MainActor
@Suite("EditMatchViewModel presence warning", .slotted)
struct EditingWarningTests {
    let mock = MockLeague()

    func member(_ name: String, _ instance: String, _ activity: PresenceActivity) -> PresenceMember {
        PresenceMember(
            id: "n/\(instance)",
            name: name,
            clientInstance: ClientInstanceID(instance)!,
            node: "n",
            activity: activity,
            since: Timestamp(millisecondsSince1970: 0)
        )
    }

    @Test func warnsWhileSomeoneElseEditsTheSameMatch() {
        let store = mock.store("me")
        let viewModel = EditMatchViewModel(store: store, matchID: mock.match1)
        #expect(viewModel.editingWarning.value == nil)

        store.presenceMembers.value = [
            member("Me", "me", .editing(mock.match1)),
            member("Ann", "ann", .viewing(mock.match1)),
            member("Cy", "cy", .editing(mock.match2)),
        ]
        #expect(viewModel.editingWarning.value == nil, "my own session, a viewer and another match do not warn")

        store.presenceMembers.value.append(member("Bob", "bob", .editing(mock.match1)))
        #expect(viewModel.editingWarning.value == "Bob is editing this match")

        store.presenceMembers.value.append(member("Al", "al", .editing(mock.match1)))
        #expect(viewModel.editingWarning.value == "Al and Bob are editing this match")

        store.presenceMembers.value.removeAll { $0.name == "Al" || $0.name == "Bob" }
        #expect(viewModel.editingWarning.value == nil, "gone when they leave or stop editing")
    }

    @Test func aNewMatchNeverWarns() {
        let store = mock.store("me")
        let viewModel = EditMatchViewModel(store: store)
        store.presenceMembers.value = [member("Bob", "bob", .editing(viewModel.matchID))]
        #expect(viewModel.editingWarning.value == nil)
    }

    @Test func theWarningTextNamesEachPersonOnce() {
        let match = MatchID()
        let others = ["Dee", "Bob", "Cy", "Al", "Bob"].enumerated().map { index, name in
            member(name, "i\(index)", .editing(match))
        }
        let me = ClientInstanceID("me")!
        #expect(EditingWarning.text(Array(others.prefix(1)), match: match, except: me) == "Dee is editing this match")
        #expect(
            EditingWarning.text(Array(others.prefix(3)), match: match, except: me)
                == "Bob, Cy and Dee are editing this match"
        )
        #expect(EditingWarning.text(others, match: match, except: me) == "Al, Bob and 2 others are editing this match")
    }
}
