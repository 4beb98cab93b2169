import GoalModel
import Testing

/// Conflict rules, continued: bounds, merged domain rules, deletes, not_found and noops.
extension ConflictRulesTests {
    @Test(
        "Goals leaving 0…999 are rejected, never clamped",
        arguments: [
            Scenario(
                "increment past 999",
                Step(clientA, .fixture, update(1, homeGoals: 999)),
                Step(clientB, .head, adjust(1, .home, 1)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"]),
                then: { matchIs($0, 1, goals: (999, 0)) }
            ),
            Scenario(
                "decrement below 0",
                Step(clientA, .fixture, adjust(1, .away, -1)),
                expect: .rejected(.goalsOutOfRange, fields: ["away_goals"]),
                then: { matchIs($0, 1, goals: (0, 0)) }
            ),
            Scenario(
                "a big increment",
                Step(clientA, .fixture, adjust(1, .home, 1000)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])
            ),
            Scenario(
                "an overflowing increment",
                Step(clientA, .fixture, adjust(2, .home, Int.max)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])
            ),
            Scenario(
                "an underflowing increment",
                Step(clientA, .fixture, adjust(2, .home, Int.min)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])
            ),
            Scenario(
                "absolute 1000",
                Step(clientA, .fixture, update(1, homeGoals: 1000)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])
            ),
            Scenario(
                "absolute -1",
                Step(clientA, .fixture, update(1, awayGoals: -1)),
                expect: .rejected(.goalsOutOfRange, fields: ["away_goals"])
            ),
            Scenario(
                "create with 1000",
                Step(clientA, .fixture, createMatch(3, [1], [2], 1000, 0)),
                expect: .rejected(.goalsOutOfRange, fields: ["home_goals"]),
                then: { $0.match(mid(3)) == nil }
            ),
            Scenario(
                "create with -1",
                Step(clientA, .fixture, createMatch(3, [1], [2], 0, -1)),
                expect: .rejected(.goalsOutOfRange, fields: ["away_goals"])
            ),
            Scenario(
                "999 is allowed",
                Step(clientA, .fixture, update(1, homeGoals: 999, awayGoals: 0)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (999, 0)) }
            ),
            Scenario(
                "998 + 1 = 999",
                Step(clientA, .fixture, update(1, homeGoals: 998)),
                Step(clientB, .head, adjust(1, .home, 1)),
                expect: .commit,
                then: { matchIs($0, 1, goals: (999, 0)) }
            ),
            Scenario(
                "1 - 1 = 0",
                Step(clientA, .fixture, adjust(2, .home, -1)),
                expect: .commit,
                then: { matchIs($0, 2, goals: (0, 0)) }
            ),
        ]
    )
    func goalBounds(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "After merging, the domain rules are checked again, each with its own code",
        arguments: [
            Scenario(
                "two edits put p6 on both sides: the second is refused",
                Step(clientA, .fixture, update(1, home: [1, 6])),
                Step(clientB, .fixture, update(1, away: [2, 6])),
                expect: .rejected(.playerOnBothSides, fields: ["home_players", "away_players"]),
                then: { matchIs($0, 1, home: [1, 6], away: [2]) }
            ),
            Scenario(
                "one edit puts the away player at home",
                Step(clientA, .fixture, update(1, home: [2])),
                expect: .rejected(.playerOnBothSides, fields: ["home_players", "away_players"])
            ),
            Scenario(
                "an empty side",
                Step(clientA, .fixture, update(1, home: [])),
                expect: .rejected(.emptySide, fields: ["home_players"])
            ),
            Scenario(
                "a player twice on one side",
                Step(clientA, .fixture, update(1, away: [2, 2])),
                expect: .rejected(.playerListedTwice, fields: ["away_players"])
            ),
            Scenario(
                "an unknown player",
                Step(clientA, .fixture, update(1, away: [99])),
                expect: .rejected(.unknownPlayer, fields: ["away_players"])
            ),
            Scenario(
                "a player deleted after base",
                Step(clientA, .fixture, createPlayer(7, "Gina")),
                Step(clientA, .head, deletePlayer(7)),
                Step(clientB, .fixture, update(1, home: [7])),
                expect: .rejected(.unknownPlayer, fields: ["home_players"])
            ),
            Scenario(
                "create: a player on both sides",
                Step(clientA, .fixture, createMatch(3, [1, 6], [6])),
                expect: .rejected(.playerOnBothSides, fields: ["home_players", "away_players"])
            ),
            Scenario(
                "create: an empty side",
                Step(clientA, .fixture, createMatch(3, [1], [])),
                expect: .rejected(.emptySide, fields: ["away_players"])
            ),
            Scenario(
                "create: an unknown player",
                Step(clientA, .fixture, createMatch(3, [1], [42])),
                expect: .rejected(.unknownPlayer, fields: ["away_players"])
            ),
            Scenario(
                "create: an existing match id",
                Step(clientA, .fixture, createMatch(1, [1], [2])),
                expect: .rejected(.idTaken, fields: ["id"])
            ),
            Scenario(
                "create: an existing player id",
                Step(clientA, .fixture, createPlayer(1, "Zed")),
                expect: .rejected(.idTaken, fields: ["id"])
            ),
            Scenario(
                "create: a bad name",
                Step(clientA, .fixture, createPlayer(7, " \u{202E}evil")),
                expect: .rejected(.forbiddenCharacter, fields: ["name"])
            ),
            Scenario(
                "a base ahead of the head",
                Step(clientA, .at(9), createPlayer(7, "Gina")),
                expect: .rejected(.baseAhead, fields: [])
            ),
            Scenario(
                "create: a blank name",
                Step(clientA, .fixture, createPlayer(7, " \t ")),
                expect: .rejected(.blankName, fields: ["name"])
            ),
            Scenario(
                "create: a name too long",
                Step(clientA, .fixture, createPlayer(7, String(repeating: "x", count: 65))),
                expect: .rejected(.nameTooLong, fields: ["name"])
            ),
            Scenario(
                "rename: a blank name",
                Step(clientA, .fixture, rename(6, "")),
                expect: .rejected(.blankName, fields: ["name"])
            ),
            Scenario(
                "a player listed twice at home",
                Step(clientA, .fixture, createMatch(3, [1, 1], [2])),
                expect: .rejected(.playerListedTwice, fields: ["home_players"])
            ),
            Scenario(
                "an unknown player at home",
                Step(clientA, .fixture, createMatch(3, [42], [2])),
                expect: .rejected(.unknownPlayer, fields: ["home_players"])
            ),
        ]
    )
    func mergedDomainRules(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "Delete with a stale base conflicts",
        arguments: [
            Scenario(
                "match goals changed by another",
                Step(clientA, .fixture, update(1, homeGoals: 1)),
                Step(clientB, .fixture, deleteMatch(1)),
                expect: .rejected(.conflict, fields: ["home_goals"]),
                then: { $0.match(mid(1)) != nil }
            ),
            Scenario(
                "match incremented by another",
                Step(clientA, .fixture, adjust(1, .away, 1)),
                Step(clientB, .fixture, deleteMatch(1)),
                expect: .rejected(.conflict, fields: ["away_goals"])
            ),
            Scenario(
                "match roster changed by another",
                Step(clientA, .fixture, update(2, home: [3])),
                Step(clientB, .fixture, deleteMatch(2)),
                expect: .rejected(.conflict, fields: ["home_players"])
            ),
            Scenario(
                "match created after the base by another",
                Step(clientA, .fixture, createMatch(3, [1], [2])),
                Step(clientB, .fixture, deleteMatch(3)),
                expect: .rejected(.conflict, fields: ["home_players", "away_players", "home_goals", "away_goals"])
            ),
            Scenario(
                "fresh base: deleted",
                Step(clientA, .fixture, update(1, homeGoals: 1)),
                Step(clientB, .head, deleteMatch(1)),
                expect: .commit,
                then: { $0.match(mid(1)) == nil }
            ),
            Scenario(
                "player renamed by another",
                Step(clientA, .fixture, rename(6, "Fred")),
                Step(clientB, .fixture, deletePlayer(6)),
                expect: .rejected(.conflict, fields: ["name"]),
                then: { $0.player(pid(6)) != nil }
            ),
            Scenario(
                "player renamed by the same client",
                Step(clientA, .fixture, rename(6, "Fred")),
                Step(clientA, .fixture, deletePlayer(6)),
                expect: .commit,
                then: { $0.player(pid(6)) == nil }
            ),
        ]
    )
    func staleDelete(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "Any edit or delete of a deleted (or never created) entity is not_found",
        arguments: [
            Scenario(
                "update a deleted match",
                Step(clientA, .fixture, deleteMatch(1)),
                Step(clientB, .fixture, update(1, homeGoals: 1)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "increment a deleted match",
                Step(clientA, .fixture, deleteMatch(1)),
                Step(clientB, .fixture, adjust(1, .home, 1)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "delete a deleted match",
                Step(clientA, .fixture, deleteMatch(1)),
                Step(clientB, .fixture, deleteMatch(1)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "the deleting client edits it",
                Step(clientA, .fixture, deleteMatch(1)),
                Step(clientA, .fixture, update(1, homeGoals: 1)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "rename a deleted player",
                Step(clientA, .fixture, deletePlayer(6)),
                Step(clientB, .fixture, rename(6, "Fred")),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "delete a deleted player",
                Step(clientA, .fixture, deletePlayer(6)),
                Step(clientB, .fixture, deletePlayer(6)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "update a match never created",
                Step(clientA, .fixture, update(9, homeGoals: 1)),
                expect: .rejected(.notFound)
            ),
            Scenario(
                "rename a player never created",
                Step(clientA, .fixture, rename(9, "Nobody")),
                expect: .rejected(.notFound)
            ),
        ]
    )
    func editAfterDelete(_ scenario: Scenario) { scenario.verify() }

    @Test(
        "A mutation that changes nothing is a noop at the current revision",
        arguments: [
            Scenario("goals to their value", Step(clientA, .fixture, update(1, homeGoals: 0)), expect: .noop),
            Scenario("an empty update", Step(clientA, .fixture, update(1)), expect: .noop),
            Scenario("a zero increment", Step(clientA, .fixture, adjust(1, .home, 0)), expect: .noop),
            Scenario("the same name", Step(clientA, .fixture, rename(1, "Alice")), expect: .noop),
            Scenario(
                "the same name after trimming and NFC",
                Step(clientA, .fixture, createPlayer(7, "Zoe\u{0308}")),
                Step(clientB, .head, rename(7, "  Zo\u{00EB}\n")),
                expect: .noop
            ),
            Scenario(
                "every field to its value",
                Step(clientA, .fixture, update(2, home: [3, 4], away: [5], homeGoals: 1, awayGoals: 0)),
                expect: .noop
            ),
            Scenario(
                "after other commits",
                Step(clientA, .fixture, update(1, homeGoals: 4)),
                Step(clientB, .head, update(1, homeGoals: 4)),
                expect: .noop
            ),
        ]
    )
    func noop(_ scenario: Scenario) { scenario.verify() }
}
