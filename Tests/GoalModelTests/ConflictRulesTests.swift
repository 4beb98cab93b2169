import GoalModel
import GoalTestSlots
import Testing

/// One table-driven test per line of docs/RULES.md "Conflict rules" (and the domain rules the engine re-checks).
/// Every scenario starts from `League.standard()` at revision 8: m1 = [p1] 0:0 [p2], m2 = [p3, p4] 1:0 [p5].
@Suite("Conflict rules", .slotted)
struct ConflictRulesTests {
    @Test(
        "Disjoint concurrent edits both apply",
        arguments: [
            Scenario(
                "goals of different sides",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientB, .fixture, update(1, awayGoals: 3)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (2, 3)) }
            ),
            Scenario(
                "players and goals",
                Step(clientA, .fixture, update(1, home: [1, 6])),
                Step(clientB, .fixture, update(1, awayGoals: 1)),
                expect: .commit,
                then: { matchIs($0, 1, home: [1, 6], away: [2], goals: (0, 1)) }
            ),
            Scenario(
                "renames of different players",
                Step(clientA, .fixture, rename(1, "Alicia")),
                Step(clientB, .fixture, rename(2, "Bobby")),
                expect: .commit,
                then: { $0.player(pid(1))?.name == "Alicia" && $0.player(pid(2))?.name == "Bobby" }
            ),
            Scenario(
                "increment and an absolute set of the other side",
                Step(clientA, .fixture, adjust(1, .home, 1)),
                Step(clientB, .fixture, update(1, awayGoals: 4)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (1, 4)) }
            ),
            Scenario(
                "edits of different matches",
                Step(clientA, .fixture, update(1, homeGoals: 5)),
                Step(clientB, .fixture, update(2, homeGoals: 5)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (5, 0)) && matchIs($0, 2, goals: (5, 0)) }
            ),
        ]
    )
    func disjointEdits(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "A field changed after base by another client to another value conflicts",
        arguments: [
            Scenario(
                "same goals field",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientB, .fixture, update(1, homeGoals: 3)),
                expect: .rejected(.conflict, fields: ["home_goals"]),
                then: { matchIs($0, 1, goals: (2, 0)) }
            ),
            Scenario(
                "same players field; the other written field is not applied either",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientB, .fixture, update(1, home: [3], awayGoals: 5)),
                expect: .rejected(.conflict, fields: ["home_players"]),
                then: { matchIs($0, 1, home: [6], goals: (0, 0)) }
            ),
            Scenario(
                "every conflicting field is named",
                Step(clientA, .fixture, update(1, homeGoals: 2, awayGoals: 2)),
                Step(clientB, .fixture, update(1, homeGoals: 1, awayGoals: 1)),
                expect: .rejected(.conflict, fields: ["home_goals", "away_goals"])
            ),
            Scenario(
                "player name",
                Step(clientA, .fixture, rename(1, "Alicia")),
                Step(clientB, .fixture, rename(1, "Ally")),
                expect: .rejected(.conflict, fields: ["name"]),
                then: { $0.player(pid(1))?.name == "Alicia" }
            ),
            Scenario(
                "a case-only rename still differs",
                Step(clientA, .fixture, rename(1, "ALICE")),
                Step(clientB, .fixture, rename(1, "alice")),
                expect: .rejected(.conflict, fields: ["name"])
            ),
            Scenario(
                "an absolute set racing an increment",
                Step(clientA, .fixture, adjust(1, .home, 1)),
                Step(clientB, .fixture, update(1, homeGoals: 5)),
                expect: .rejected(.conflict, fields: ["home_goals"]),
                then: { matchIs($0, 1, goals: (1, 0)) }
            ),
            Scenario(
                "a third client's change counts too",
                Step(clientC, .fixture, update(2, away: [6])),
                Step(clientA, .head, update(2, homeGoals: 3)),
                Step(clientB, .fixture, update(2, away: [2], homeGoals: 3)),
                expect: .rejected(.conflict, fields: ["away_players"])
            ),
            Scenario(
                "no conflict when the base is after the change",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientB, .head, update(1, homeGoals: 3)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (3, 0)) }
            ),
        ]
    )
    func sameFieldConflict(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "A client's own earlier write is not a conflict",
        arguments: [
            Scenario(
                "goals",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientA, .fixture, update(1, homeGoals: 3)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (3, 0)) }
            ),
            Scenario(
                "name",
                Step(clientA, .fixture, rename(1, "Alicia")),
                Step(clientA, .fixture, rename(1, "Ally")),
                expect: .commit,
                then: { $0.player(pid(1))?.name == "Ally" }
            ),
            Scenario(
                "increment after its own roster change",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientA, .fixture, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, home: [6], goals: (1, 0)) }
            ),
            Scenario(
                "delete after its own edit",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientA, .fixture, deleteMatch(1)),
                expect: .commit,
                then: { $0.match(mid(1)) == nil }
            ),
            Scenario(
                "its own create",
                Step(clientA, .fixture, createPlayer(7, "Gina")),
                Step(clientA, .fixture, rename(7, "Gin")),
                expect: .commit,
                then: { $0.player(pid(7))?.name == "Gin" }
            ),
        ]
    )
    func ownWrite(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "Writing the value the field already has is not a conflict",
        arguments: [
            Scenario(
                "same goals only: noop",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientB, .fixture, update(1, homeGoals: 2)),
                expect: .noop
            ),
            Scenario(
                "same goals plus another field: commit, the equal field keeps its stamp",
                Step(clientA, .fixture, update(1, homeGoals: 2)),
                Step(clientB, .fixture, update(1, homeGoals: 2, awayGoals: 5)),
                expect: .commit,
                then: { state in
                    let stamps = state.match(mid(1))!.stamps
                    return matchIs(state, 1, goals: (2, 5))
                        && stamps.homeGoals == FieldStamp(revision: 9, writer: clientA)
                        && stamps.awayGoals == FieldStamp(revision: 10, writer: clientB)
                }
            ),
            Scenario(
                "same name: noop",
                Step(clientA, .fixture, rename(1, "Alicia")),
                Step(clientB, .fixture, rename(1, " Alicia ")),
                expect: .noop
            ),
            Scenario(
                "same players plus goals",
                Step(clientA, .fixture, update(1, home: [1, 6])),
                Step(clientB, .fixture, update(1, home: [1, 6], awayGoals: 1)),
                expect: .commit,
                then: { matchIs($0, 1, home: [1, 6], goals: (0, 1)) }
            ),
        ]
    )
    func sameValue(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "Concurrent increments all count",
        arguments: [
            Scenario(
                "two +1 on home",
                Step(clientA, .fixture, adjust(1, .home, 1)),
                Step(clientB, .fixture, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (2, 0)) }
            ),
            Scenario(
                "three clients, +2 +3 +4",
                Step(clientA, .fixture, adjust(1, .away, 2)),
                Step(clientB, .fixture, adjust(1, .away, 3)),
                Step(clientC, .fixture, adjust(1, .away, 4)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (0, 9)) }
            ),
            Scenario(
                "+1 and -1",
                Step(clientA, .fixture, adjust(2, .home, 1)),
                Step(clientB, .fixture, adjust(2, .home, -1)),
                expect: .commit,
                then: { matchIs($0, 2, goals: (1, 0)) }
            ),
            Scenario(
                "an increment after a concurrent absolute set counts",
                Step(clientA, .fixture, update(1, homeGoals: 3)),
                Step(clientB, .fixture, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (4, 0)) }
            ),
        ]
    )
    func concurrentIncrements(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "An increment conflicts only when that side's players changed after its base",
        arguments: [
            Scenario(
                "home roster changed by another",
                Step(clientA, .fixture, update(1, home: [1, 6])),
                Step(clientB, .fixture, adjust(1, .home, 1)),
                expect: .rejected(.conflict, fields: ["home_players"]),
                then: { matchIs($0, 1, goals: (0, 0)) }
            ),
            Scenario(
                "away roster changed by another",
                Step(clientA, .fixture, update(1, away: [2, 6])),
                Step(clientB, .fixture, adjust(1, .away, 1)),
                expect: .rejected(.conflict, fields: ["away_players"])
            ),
            Scenario(
                "the other side's roster changed",
                Step(clientA, .fixture, update(1, away: [2, 6])),
                Step(clientB, .fixture, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (1, 0)) }
            ),
            Scenario(
                "own roster change",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientA, .fixture, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, home: [6], goals: (1, 0)) }
            ),
            Scenario(
                "base after the roster change",
                Step(clientA, .fixture, update(1, home: [6])),
                Step(clientB, .head, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, home: [6], goals: (1, 0)) }
            ),
        ]
    )
    func incrementConflicts(_ scenario: Scenario) { scenario.verify() }
}
