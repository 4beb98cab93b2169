import GoalModel
import Testing

/// One table-driven test per line of DESIGN.md "Conflict rules" (and the domain rules the engine re-checks).
/// Every scenario starts from `League.standard()` at revision 8: m1 = [p1] 0:0 [p2], m2 = [p3, p4] 1:0 [p5].
@Suite("Conflict rules")
struct ConflictRulesTests {
    @Test("Disjoint concurrent edits both apply", arguments: [
        Scenario("goals of different sides",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientB, .fixture, update(1, awayGoals: 3)),
                 expect: .commit, then: { matchIs($0, 1, goals: (2, 3)) }),
        Scenario("players and goals",
                 Step(clientA, .fixture, update(1, home: [1, 6])), Step(clientB, .fixture, update(1, awayGoals: 1)),
                 expect: .commit, then: { matchIs($0, 1, home: [1, 6], away: [2], goals: (0, 1)) }),
        Scenario("renames of different players",
                 Step(clientA, .fixture, rename(1, "Alicia")), Step(clientB, .fixture, rename(2, "Bobby")),
                 expect: .commit, then: { $0.player(pid(1))?.name == "Alicia" && $0.player(pid(2))?.name == "Bobby" }),
        Scenario("increment and an absolute set of the other side",
                 Step(clientA, .fixture, adjust(1, .home, 1)), Step(clientB, .fixture, update(1, awayGoals: 4)),
                 expect: .commit, then: { matchIs($0, 1, goals: (1, 4)) }),
        Scenario("edits of different matches",
                 Step(clientA, .fixture, update(1, homeGoals: 5)), Step(clientB, .fixture, update(2, homeGoals: 5)),
                 expect: .commit, then: { matchIs($0, 1, goals: (5, 0)) && matchIs($0, 2, goals: (5, 0)) }),
    ])
    func disjointEdits(_ scenario: Scenario) { scenario.verify() }

    @Test("A field changed after base by another client to another value conflicts", arguments: [
        Scenario("same goals field",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientB, .fixture, update(1, homeGoals: 3)),
                 expect: .rejected(.conflict, fields: ["home_goals"]), then: { matchIs($0, 1, goals: (2, 0)) }),
        Scenario("same players field; the other written field is not applied either",
                 Step(clientA, .fixture, update(1, home: [6])), Step(clientB, .fixture, update(1, home: [3], awayGoals: 5)),
                 expect: .rejected(.conflict, fields: ["home_players"]), then: { matchIs($0, 1, home: [6], goals: (0, 0)) }),
        Scenario("every conflicting field is named",
                 Step(clientA, .fixture, update(1, homeGoals: 2, awayGoals: 2)),
                 Step(clientB, .fixture, update(1, homeGoals: 1, awayGoals: 1)),
                 expect: .rejected(.conflict, fields: ["home_goals", "away_goals"])),
        Scenario("player name",
                 Step(clientA, .fixture, rename(1, "Alicia")), Step(clientB, .fixture, rename(1, "Ally")),
                 expect: .rejected(.conflict, fields: ["name"]), then: { $0.player(pid(1))?.name == "Alicia" }),
        Scenario("a case-only rename still differs",
                 Step(clientA, .fixture, rename(1, "ALICE")), Step(clientB, .fixture, rename(1, "alice")),
                 expect: .rejected(.conflict, fields: ["name"])),
        Scenario("an absolute set racing an increment",
                 Step(clientA, .fixture, adjust(1, .home, 1)), Step(clientB, .fixture, update(1, homeGoals: 5)),
                 expect: .rejected(.conflict, fields: ["home_goals"]), then: { matchIs($0, 1, goals: (1, 0)) }),
        Scenario("a third client's change counts too",
                 Step(clientC, .fixture, update(2, away: [6])), Step(clientA, .head, update(2, homeGoals: 3)),
                 Step(clientB, .fixture, update(2, away: [2], homeGoals: 3)),
                 expect: .rejected(.conflict, fields: ["away_players"])),
        Scenario("no conflict when the base is after the change",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientB, .head, update(1, homeGoals: 3)),
                 expect: .commit, then: { matchIs($0, 1, goals: (3, 0)) }),
    ])
    func sameFieldConflict(_ scenario: Scenario) { scenario.verify() }

    @Test("A client's own earlier write is not a conflict", arguments: [
        Scenario("goals",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientA, .fixture, update(1, homeGoals: 3)),
                 expect: .commit, then: { matchIs($0, 1, goals: (3, 0)) }),
        Scenario("name",
                 Step(clientA, .fixture, rename(1, "Alicia")), Step(clientA, .fixture, rename(1, "Ally")),
                 expect: .commit, then: { $0.player(pid(1))?.name == "Ally" }),
        Scenario("increment after its own roster change",
                 Step(clientA, .fixture, update(1, home: [6])), Step(clientA, .fixture, adjust(1, .home, 1)),
                 expect: .commit, then: { matchIs($0, 1, home: [6], goals: (1, 0)) }),
        Scenario("delete after its own edit",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientA, .fixture, deleteMatch(1)),
                 expect: .commit, then: { $0.match(mid(1)) == nil }),
        Scenario("its own create", Step(clientA, .fixture, createPlayer(7, "Gina")), Step(clientA, .fixture, rename(7, "Gin")),
                 expect: .commit),
    ])
    func ownWrite(_ scenario: Scenario) { scenario.verify() }

    @Test("Writing the value the field already has is not a conflict", arguments: [
        Scenario("same goals only: noop",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientB, .fixture, update(1, homeGoals: 2)),
                 expect: .noop),
        Scenario("same goals plus another field: commit, the equal field keeps its stamp",
                 Step(clientA, .fixture, update(1, homeGoals: 2)), Step(clientB, .fixture, update(1, homeGoals: 2, awayGoals: 5)),
                 expect: .commit,
                 then: { state in
                     let stamps = state.match(mid(1))!.stamps
                     return matchIs(state, 1, goals: (2, 5)) && stamps.homeGoals == FieldStamp(revision: 9, writer: clientA)
                         && stamps.awayGoals == FieldStamp(revision: 10, writer: clientB)
                 }),
        Scenario("same name: noop",
                 Step(clientA, .fixture, rename(1, "Alicia")), Step(clientB, .fixture, rename(1, " Alicia ")), expect: .noop),
        Scenario("same players plus goals",
                 Step(clientA, .fixture, update(1, home: [1, 6])), Step(clientB, .fixture, update(1, home: [1, 6], awayGoals: 1)),
                 expect: .commit, then: { matchIs($0, 1, home: [1, 6], goals: (0, 1)) }),
    ])
    func sameValue(_ scenario: Scenario) { scenario.verify() }

    @Test("Concurrent increments all count", arguments: [
        Scenario("two +1 on home",
                 Step(clientA, .fixture, adjust(1, .home, 1)), Step(clientB, .fixture, adjust(1, .home, 1)),
                 expect: .commit, then: { matchIs($0, 1, goals: (2, 0)) }),
        Scenario("three clients, +2 +3 +4",
                 Step(clientA, .fixture, adjust(1, .away, 2)), Step(clientB, .fixture, adjust(1, .away, 3)),
                 Step(clientC, .fixture, adjust(1, .away, 4)),
                 expect: .commit, then: { matchIs($0, 1, goals: (0, 9)) }),
        Scenario("+1 and -1",
                 Step(clientA, .fixture, adjust(2, .home, 1)), Step(clientB, .fixture, adjust(2, .home, -1)),
                 expect: .commit, then: { matchIs($0, 2, goals: (1, 0)) }),
        Scenario("an increment after a concurrent absolute set counts",
                 Step(clientA, .fixture, update(1, homeGoals: 3)), Step(clientB, .fixture, adjust(1, .home, 1)),
                 expect: .commit, then: { matchIs($0, 1, goals: (4, 0)) }),
    ])
    func concurrentIncrements(_ scenario: Scenario) { scenario.verify() }

    @Test("An increment conflicts only when that side's players changed after its base", arguments: [
        Scenario("home roster changed by another",
                 Step(clientA, .fixture, update(1, home: [1, 6])), Step(clientB, .fixture, adjust(1, .home, 1)),
                 expect: .rejected(.conflict, fields: ["home_players"]), then: { matchIs($0, 1, goals: (0, 0)) }),
        Scenario("away roster changed by another",
                 Step(clientA, .fixture, update(1, away: [2, 6])), Step(clientB, .fixture, adjust(1, .away, 1)),
                 expect: .rejected(.conflict, fields: ["away_players"])),
        Scenario("the other side's roster changed",
                 Step(clientA, .fixture, update(1, away: [2, 6])), Step(clientB, .fixture, adjust(1, .home, 1)),
                 expect: .commit, then: { matchIs($0, 1, goals: (1, 0)) }),
        Scenario("own roster change", Step(clientA, .fixture, update(1, home: [6])), Step(clientA, .fixture, adjust(1, .home, 1)),
                 expect: .commit),
        Scenario("base after the roster change",
                 Step(clientA, .fixture, update(1, home: [6])), Step(clientB, .head, adjust(1, .home, 1)), expect: .commit),
    ])
    func incrementConflicts(_ scenario: Scenario) { scenario.verify() }

    @Test("Goals leaving 0…999 are rejected, never clamped", arguments: [
        Scenario("increment past 999",
                 Step(clientA, .fixture, update(1, homeGoals: 999)), Step(clientB, .head, adjust(1, .home, 1)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"]), then: { matchIs($0, 1, goals: (999, 0)) }),
        Scenario("decrement below 0", Step(clientA, .fixture, adjust(1, .away, -1)),
                 expect: .rejected(.goalsOutOfRange, fields: ["away_goals"]), then: { matchIs($0, 1, goals: (0, 0)) }),
        Scenario("a big increment", Step(clientA, .fixture, adjust(1, .home, 1000)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])),
        Scenario("an overflowing increment", Step(clientA, .fixture, adjust(2, .home, Int.max)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])),
        Scenario("an underflowing increment", Step(clientA, .fixture, adjust(2, .home, Int.min)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])),
        Scenario("absolute 1000", Step(clientA, .fixture, update(1, homeGoals: 1000)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"])),
        Scenario("absolute -1", Step(clientA, .fixture, update(1, awayGoals: -1)),
                 expect: .rejected(.goalsOutOfRange, fields: ["away_goals"])),
        Scenario("create with 1000", Step(clientA, .fixture, createMatch(3, [1], [2], 1000, 0)),
                 expect: .rejected(.goalsOutOfRange, fields: ["home_goals"]), then: { $0.match(mid(3)) == nil }),
        Scenario("create with -1", Step(clientA, .fixture, createMatch(3, [1], [2], 0, -1)),
                 expect: .rejected(.goalsOutOfRange, fields: ["away_goals"])),
        Scenario("999 is allowed", Step(clientA, .fixture, update(1, homeGoals: 999, awayGoals: 0)),
                 expect: .commit, then: { matchIs($0, 1, goals: (999, 0)) }),
        Scenario("998 + 1 = 999",
                 Step(clientA, .fixture, update(1, homeGoals: 998)), Step(clientB, .head, adjust(1, .home, 1)),
                 expect: .commit, then: { matchIs($0, 1, goals: (999, 0)) }),
        Scenario("1 - 1 = 0", Step(clientA, .fixture, adjust(2, .home, -1)), expect: .commit,
                 then: { matchIs($0, 2, goals: (0, 0)) }),
    ])
    func goalBounds(_ scenario: Scenario) { scenario.verify() }

    @Test("After merging, the domain rules are checked again", arguments: [
        Scenario("two edits put p6 on both sides: the second is refused",
                 Step(clientA, .fixture, update(1, home: [1, 6])), Step(clientB, .fixture, update(1, away: [2, 6])),
                 expect: .rejected(.invalid, fields: ["home_players", "away_players"]),
                 then: { matchIs($0, 1, home: [1, 6], away: [2]) }),
        Scenario("one edit puts the away player at home", Step(clientA, .fixture, update(1, home: [2])),
                 expect: .rejected(.invalid)),
        Scenario("an empty side", Step(clientA, .fixture, update(1, home: [])),
                 expect: .rejected(.invalid, fields: ["home_players"])),
        Scenario("a player twice on one side", Step(clientA, .fixture, update(1, away: [2, 2])),
                 expect: .rejected(.invalid, fields: ["away_players"])),
        Scenario("an unknown player", Step(clientA, .fixture, update(1, away: [99])),
                 expect: .rejected(.invalid, fields: ["away_players"])),
        Scenario("a player deleted after base",
                 Step(clientA, .fixture, createPlayer(7, "Gina")), Step(clientA, .head, deletePlayer(7)),
                 Step(clientB, .fixture, update(1, home: [7])), expect: .rejected(.invalid, fields: ["home_players"])),
        Scenario("create: a player on both sides", Step(clientA, .fixture, createMatch(3, [1, 6], [6])),
                 expect: .rejected(.invalid)),
        Scenario("create: an empty side", Step(clientA, .fixture, createMatch(3, [1], [])),
                 expect: .rejected(.invalid, fields: ["away_players"])),
        Scenario("create: an unknown player", Step(clientA, .fixture, createMatch(3, [1], [42])),
                 expect: .rejected(.invalid)),
        Scenario("create: an existing match id", Step(clientA, .fixture, createMatch(1, [1], [2])),
                 expect: .rejected(.invalid)),
        Scenario("create: an existing player id", Step(clientA, .fixture, createPlayer(1, "Zed")),
                 expect: .rejected(.invalid)),
        Scenario("create: a bad name", Step(clientA, .fixture, createPlayer(7, " \u{202E}evil")),
                 expect: .rejected(.invalid, fields: ["name"])),
        Scenario("a base ahead of the head", Step(clientA, .at(9), createPlayer(7, "Gina")), expect: .rejected(.invalid)),
    ])
    func mergedDomainRules(_ scenario: Scenario) { scenario.verify() }

    @Test("Delete with a stale base conflicts", arguments: [
        Scenario("match goals changed by another",
                 Step(clientA, .fixture, update(1, homeGoals: 1)), Step(clientB, .fixture, deleteMatch(1)),
                 expect: .rejected(.conflict, fields: ["home_goals"]), then: { $0.match(mid(1)) != nil }),
        Scenario("match incremented by another",
                 Step(clientA, .fixture, adjust(1, .away, 1)), Step(clientB, .fixture, deleteMatch(1)),
                 expect: .rejected(.conflict, fields: ["away_goals"])),
        Scenario("match roster changed by another",
                 Step(clientA, .fixture, update(2, home: [3])), Step(clientB, .fixture, deleteMatch(2)),
                 expect: .rejected(.conflict, fields: ["home_players"])),
        Scenario("match created after the base by another",
                 Step(clientA, .fixture, createMatch(3, [1], [2])), Step(clientB, .fixture, deleteMatch(3)),
                 expect: .rejected(.conflict, fields: ["home_players", "away_players", "home_goals", "away_goals"])),
        Scenario("fresh base: deleted",
                 Step(clientA, .fixture, update(1, homeGoals: 1)), Step(clientB, .head, deleteMatch(1)),
                 expect: .commit, then: { $0.match(mid(1)) == nil }),
        Scenario("player renamed by another",
                 Step(clientA, .fixture, rename(6, "Fred")), Step(clientB, .fixture, deletePlayer(6)),
                 expect: .rejected(.conflict, fields: ["name"]), then: { $0.player(pid(6)) != nil }),
        Scenario("player renamed by the same client",
                 Step(clientA, .fixture, rename(6, "Fred")), Step(clientA, .fixture, deletePlayer(6)), expect: .commit),
    ])
    func staleDelete(_ scenario: Scenario) { scenario.verify() }

    @Test("Any edit or delete of a deleted (or never created) entity is not_found", arguments: [
        Scenario("update a deleted match", Step(clientA, .fixture, deleteMatch(1)), Step(clientB, .fixture, update(1, homeGoals: 1)),
                 expect: .rejected(.notFound)),
        Scenario("increment a deleted match", Step(clientA, .fixture, deleteMatch(1)), Step(clientB, .fixture, adjust(1, .home, 1)),
                 expect: .rejected(.notFound)),
        Scenario("delete a deleted match", Step(clientA, .fixture, deleteMatch(1)), Step(clientB, .fixture, deleteMatch(1)),
                 expect: .rejected(.notFound)),
        Scenario("the deleting client edits it", Step(clientA, .fixture, deleteMatch(1)), Step(clientA, .fixture, update(1, homeGoals: 1)),
                 expect: .rejected(.notFound)),
        Scenario("rename a deleted player", Step(clientA, .fixture, deletePlayer(6)), Step(clientB, .fixture, rename(6, "Fred")),
                 expect: .rejected(.notFound)),
        Scenario("delete a deleted player", Step(clientA, .fixture, deletePlayer(6)), Step(clientB, .fixture, deletePlayer(6)),
                 expect: .rejected(.notFound)),
        Scenario("update a match never created", Step(clientA, .fixture, update(9, homeGoals: 1)), expect: .rejected(.notFound)),
        Scenario("rename a player never created", Step(clientA, .fixture, rename(9, "Nobody")), expect: .rejected(.notFound)),
    ])
    func editAfterDelete(_ scenario: Scenario) { scenario.verify() }

    @Test("A mutation that changes nothing is a noop at the current revision", arguments: [
        Scenario("goals to their value", Step(clientA, .fixture, update(1, homeGoals: 0)), expect: .noop),
        Scenario("an empty update", Step(clientA, .fixture, update(1)), expect: .noop),
        Scenario("a zero increment", Step(clientA, .fixture, adjust(1, .home, 0)), expect: .noop),
        Scenario("the same name", Step(clientA, .fixture, rename(1, "Alice")), expect: .noop),
        Scenario("the same name after trimming and NFC", Step(clientA, .fixture, createPlayer(7, "Zoe\u{0308}")),
                 Step(clientB, .head, rename(7, "  Zo\u{00EB}\n")), expect: .noop),
        Scenario("every field to its value", Step(clientA, .fixture, update(2, home: [3, 4], away: [5], homeGoals: 1, awayGoals: 0)),
                 expect: .noop),
        Scenario("after other commits", Step(clientA, .fixture, update(1, homeGoals: 4)), Step(clientB, .head, update(1, homeGoals: 4)),
                 expect: .noop),
    ])
    func noop(_ scenario: Scenario) { scenario.verify() }

    @Test("Names are unique by key", arguments: [
        Scenario("create a case variant", Step(clientA, .fixture, createPlayer(7, "alice")),
                 expect: .rejected(.nameTaken, fields: ["name"]), then: { $0.player(pid(7)) == nil }),
        Scenario("create with spaces and caps", Step(clientA, .fixture, createPlayer(7, "  ALICE ")),
                 expect: .rejected(.nameTaken, fields: ["name"])),
        Scenario("rename onto another's key", Step(clientA, .fixture, rename(2, "alice")),
                 expect: .rejected(.nameTaken, fields: ["name"]), then: { $0.player(pid(2))?.name == "Bob" }),
        Scenario("alice → Alice is not a collision", Step(clientA, .fixture, rename(1, "alice")), Step(clientA, .head, rename(1, "Alice")),
                 expect: .commit, then: { $0.player(pid(1))?.name == "Alice" }),
        Scenario("Alice → ALICE", Step(clientA, .fixture, rename(1, "ALICE")),
                 expect: .commit, then: { $0.player(withNameKey: "alice")?.id == pid(1) }),
        Scenario("a freed name can be taken", Step(clientA, .fixture, rename(1, "Zed")), Step(clientB, .head, createPlayer(7, "alice")),
                 expect: .commit, then: { $0.player(withNameKey: "alice")?.id == pid(7) }),
        Scenario("a deleted player's name can be taken", Step(clientA, .fixture, deletePlayer(6)),
                 Step(clientB, .head, createPlayer(7, "FRANK")), expect: .commit),
        Scenario("NFD and NFC collide", Step(clientA, .fixture, createPlayer(7, "Émile")),
                 Step(clientB, .head, createPlayer(8, "e\u{0301}mile")), expect: .rejected(.nameTaken, fields: ["name"])),
        Scenario("a new name", Step(clientA, .fixture, createPlayer(7, "Alicia")), expect: .commit),
    ])
    func nameCollisions(_ scenario: Scenario) { scenario.verify() }

    @Test("Deleting a referenced player is player_in_use", arguments: [
        Scenario("home player", Step(clientA, .fixture, deletePlayer(1)), expect: .rejected(.playerInUse),
                 then: { $0.player(pid(1)) != nil }),
        Scenario("a team member", Step(clientA, .fixture, deletePlayer(4)), expect: .rejected(.playerInUse)),
        Scenario("away player", Step(clientA, .fixture, deletePlayer(5)), expect: .rejected(.playerInUse)),
        Scenario("unreferenced player", Step(clientA, .fixture, deletePlayer(6)), expect: .commit,
                 then: { $0.player(pid(6)) == nil && $0.rating(of: pid(6)) == nil }),
        Scenario("after its only match is deleted", Step(clientA, .fixture, deleteMatch(1)), Step(clientA, .head, deletePlayer(1)),
                 expect: .commit),
        Scenario("after being taken off the roster", Step(clientA, .fixture, update(1, home: [6])),
                 Step(clientA, .head, deletePlayer(1)), expect: .commit),
        Scenario("after being put on a roster", Step(clientA, .fixture, update(1, home: [6])),
                 Step(clientA, .head, deletePlayer(6)), expect: .rejected(.playerInUse)),
        Scenario("referenced by a new match", Step(clientA, .fixture, createMatch(3, [6], [1])),
                 Step(clientA, .head, deletePlayer(6)), expect: .rejected(.playerInUse)),
    ])
    func deleteReferencedPlayer(_ scenario: Scenario) { scenario.verify() }
}
