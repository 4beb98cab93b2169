import Foundation
import GoalModel
import GoalStore
import Testing

/// Batches whose commits touch the same entities again: every store writes what the commits leave, whatever it
/// merges (the SQLite store writes a match edited by many commits of a batch once, the PostgreSQL store writes each
/// entity's last state in one statement).
extension StorageConformanceTests {
    @Test(
        "a batch that edits one match many times, frees a player and then deletes it leaves the engine's league",
        arguments: StorageKind.allCases
    )
    func repeatedEditsInOneBatch(kind: StorageKind) throws {
        let harness = try StoreHarness(kind)
        let ids = Ids()
        let erin = PlayerID()
        var driver = LeagueDriver()
        driver.seedFourPlayersAndMatch(ids)
        try harness.storage.append(driver.takeBatch())

        // One batch: goal edits, alice replaced by a player created in the same batch, alice deleted (the store
        // must have written the match without her first), more goal edits, then a second match created and deleted.
        for _ in 0..<20 { driver.mutate(.adjustGoals(id: ids.match, side: .home, delta: 1), by: .alpha) }
        driver.mutate(.createPlayer(id: erin, name: "erin"), by: .beta)
        driver.mutate(.updateMatch(id: ids.match, MatchUpdate(homePlayers: [erin, ids.bob])), by: .beta)
        let deleted = driver.mutate(.deletePlayer(id: ids.alice), by: .beta)
        #expect(deleted.outcome.rejectionCode == nil)
        for _ in 0..<20 { driver.mutate(.adjustGoals(id: ids.match, side: .away, delta: 1), by: .beta) }
        let passing = MatchID()
        driver.mutate(
            .createMatch(id: passing, homePlayers: [erin], awayPlayers: [ids.dave], homeGoals: 1, awayGoals: 1),
            by: .alpha
        )
        driver.mutate(.adjustGoals(id: passing, side: .home, delta: 1), by: .alpha)
        driver.mutate(.deleteMatch(id: passing), by: .alpha)
        let batch = driver.takeBatch()
        #expect(batch.commits.count == 46)
        try harness.storage.append(batch)

        for _ in 0..<2 {
            let league = try harness.storage.recover()
            #expect(league.state == driver.state)
            #expect(league.headDigest == driver.digest)
            let match = try #require(league.state.match(ids.match))
            #expect(match.homePlayers == [erin, ids.bob])
            #expect((match.homeGoals, match.awayGoals) == (20, 20))
            #expect(league.state.player(ids.alice) == nil)
            #expect(league.state.match(passing) == nil)
            try harness.reopen()
        }
    }
}
