import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@Suite("ReplicaState: entity-level apply, digest chain, snapshot, orders", .slotted)
struct ReplicaStateTests {
    @Test func applyingTheWholeHistoryEqualsTheServersSnapshot() throws {
        var script = LeagueScript()
        for name in ["Cy", "ada", "Bo"] { script.player(name) }
        let match = MatchID()
        script.commit(
            .createMatch(
                id: match,
                homePlayers: [script.players[0]],
                awayPlayers: [script.players[1]],
                homeGoals: 1,
                awayGoals: 0
            )
        )
        script.commit(.updateMatch(id: match, MatchUpdate(awayPlayers: [script.players[2]])))
        script.commit(.renamePlayer(id: script.players[1], name: "Ada"))
        script.commit(.deleteMatch(id: match))
        script.commit(.deletePlayer(id: script.players[1]))
        var replica = ReplicaState()
        replica.adopt(epoch: LeagueEpoch(rawValue: "test-epoch"))
        for changeset in script.league.history {
            #expect(try replica.apply(changeset))
        }
        #expect(replica == ReplicaState(script.league.snapshot))
        #expect(replica.playersByName().map(\.name) == ["Bo", "Cy"])
        #expect(replica.ratings.count == 2)
    }

    @Test func duplicatesAreIgnoredAndGapsAndBadDigestsThrowWithoutChangingAnything() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let second = script.player("Bo")
        let third = script.player("Cy")
        var replica = ReplicaState()
        #expect((try? replica.apply(first)) == true)
        let afterFirst = replica
        #expect((try? replica.apply(first)) == false)
        #expect(throws: ReplicaError.gap(expected: 2, received: 3)) { try replica.apply(third) }
        var forged = second
        forged.digest = .genesis
        #expect(throws: ReplicaError.digestMismatch(revision: 2)) { try replica.apply(forged) }
        #expect(replica == afterFirst)
        #expect(ReplicaError.gap(expected: 2, received: 3).isGap)
    }

    @Test func adoptingAnotherEpochEmptiesTheReplica() {
        var script = LeagueScript()
        var replica = ReplicaState()
        replica.adopt(epoch: LeagueEpoch(rawValue: "one"))
        _ = try? replica.apply(script.player("Ada"))
        replica.adopt(epoch: LeagueEpoch(rawValue: "one"))
        #expect(replica.revision == 1)
        replica.adopt(epoch: LeagueEpoch(rawValue: "two"))
        #expect(replica.revision == 0)
        #expect(replica.players.isEmpty)
        #expect(replica.epoch == LeagueEpoch(rawValue: "two"))
    }

    @Test func rankingsAreBestFirstWithExactTiesByNameThenId() {
        var script = LeagueScript()
        for name in ["Dee", "bea", "Cal", "Abe"] { script.player(name) }
        let (dee, bea, cal, abe) = (script.players[0], script.players[1], script.players[2], script.players[3])
        // Dee beats Bea; Cal draws Abe. Dee 10.00, Cal and Abe 3.33 (tie → name), Bea 0.
        script.commit(.createMatch(id: MatchID(), homePlayers: [dee], awayPlayers: [bea], homeGoals: 1, awayGoals: 0))
        script.commit(.createMatch(id: MatchID(), homePlayers: [cal], awayPlayers: [abe], homeGoals: 2, awayGoals: 2))
        let replica = ReplicaState(script.league.snapshot)
        #expect(replica.rankings().map(\.playerID) == [dee, abe, cal, bea])
        #expect(replica.rankings().map(\.formatted) == ["10.00", "3.33", "3.33", "0.00"])
        #expect(replica.matchesNewestFirst().map(\.homePlayers) == [[cal], [dee]])
        #expect(replica.names([abe, cal]) == "Abe, Cal")
    }
}
