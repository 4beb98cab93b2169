import GoalModel
import Testing

/// Conflict rules, continued: unique names and deleting a referenced player.
extension ConflictRulesTests {
    @Test(
        "Names are unique by key",
        arguments: [
            Scenario(
                "create a case variant",
                Step(clientA, .fixture, createPlayer(7, "alice")),
                expect: .rejected(.nameTaken, fields: ["name"]),
                then: { $0.player(pid(7)) == nil }
            ),
            Scenario(
                "create with spaces and caps",
                Step(clientA, .fixture, createPlayer(7, "  ALICE ")),
                expect: .rejected(.nameTaken, fields: ["name"])
            ),
            Scenario(
                "rename onto another's key",
                Step(clientA, .fixture, rename(2, "alice")),
                expect: .rejected(.nameTaken, fields: ["name"]),
                then: { $0.player(pid(2))?.name == "Bob" }
            ),
            Scenario(
                "alice → Alice is not a collision",
                Step(clientA, .fixture, rename(1, "alice")),
                Step(clientA, .head, rename(1, "Alice")),
                expect: .commit,
                then: { $0.player(pid(1))?.name == "Alice" }
            ),
            Scenario(
                "Alice → ALICE",
                Step(clientA, .fixture, rename(1, "ALICE")),
                expect: .commit,
                then: { $0.player(withNameKey: "alice")?.id == pid(1) }
            ),
            Scenario(
                "a freed name can be taken",
                Step(clientA, .fixture, rename(1, "Zed")),
                Step(clientB, .head, createPlayer(7, "alice")),
                expect: .commit,
                then: { $0.player(withNameKey: "alice")?.id == pid(7) }
            ),
            Scenario(
                "a deleted player's name can be taken",
                Step(clientA, .fixture, deletePlayer(6)),
                Step(clientB, .head, createPlayer(7, "FRANK")),
                expect: .commit,
                then: { $0.player(withNameKey: "frank")?.id == pid(7) }
            ),
            Scenario(
                "NFD and NFC collide",
                Step(clientA, .fixture, createPlayer(7, "Émile")),
                Step(clientB, .head, createPlayer(8, "e\u{0301}mile")),
                expect: .rejected(.nameTaken, fields: ["name"])
            ),
            Scenario("a new name", Step(clientA, .fixture, createPlayer(7, "Alicia")), expect: .commit),
        ]
    )
    func nameCollisions(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "Deleting a referenced player is player_in_use",
        arguments: [
            Scenario(
                "home player",
                Step(clientA, .fixture, deletePlayer(1)),
                expect: .rejected(.playerInUse),
                then: { $0.player(pid(1)) != nil }
            ),
            Scenario("a team member", Step(clientA, .fixture, deletePlayer(4)), expect: .rejected(.playerInUse)),
            Scenario("away player", Step(clientA, .fixture, deletePlayer(5)), expect: .rejected(.playerInUse)),
            Scenario(
                "unreferenced player",
                Step(clientA, .fixture, deletePlayer(6)),
                expect: .commit,
                then: { $0.player(pid(6)) == nil && $0.rating(of: pid(6)) == nil }
            ),
            Scenario(
                "after its only match is deleted",
                Step(clientA, .fixture, deleteMatch(1)),
                Step(clientA, .head, deletePlayer(1)),
                expect: .commit
            ),
            Scenario(
                "after being taken off the roster",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientA, .head, deletePlayer(1)),
                expect: .commit
            ),
            Scenario(
                "after being put on a roster",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientA, .head, deletePlayer(6)),
                expect: .rejected(.playerInUse)
            ),
            Scenario(
                "referenced by a new match",
                Step(clientA, .fixture, createMatch(3, [6], [1])),
                Step(clientA, .head, deletePlayer(6)),
                expect: .rejected(.playerInUse)
            ),
        ]
    )
    func deleteReferencedPlayer(_ scenario: Scenario) { scenario.verify() }
}
