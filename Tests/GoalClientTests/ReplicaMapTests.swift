import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@Suite("ReplicaMap: a persistent map with value semantics", .slotted)
struct ReplicaMapTests {
    @Test func aPublishedCopyKeepsItsStateWhileTheReplicaMovesOn() throws {
        var script = LeagueScript()
        for index in 0..<50 { script.player("Player \(index)") }
        let players = script.players
        var replica = ReplicaState()
        replica.adopt(epoch: LeagueEpoch(rawValue: "test-epoch"))
        for changeset in script.league.history { try replica.apply(changeset) }
        var published: [ReplicaState] = []
        for (index, player) in players.enumerated() {
            published.append(replica)  // as GoalClient publishes it, then applies the next changeset
            try replica.apply(script.commit(.renamePlayer(id: player, name: "Renamed \(index)")))
        }
        for (index, copy) in published.enumerated() {
            #expect(copy.revision == Revision(50 + index))
            #expect(copy.players[players[index]]?.name == "Player \(index)")
            #expect(index == 0 || copy.players[players[index - 1]]?.name == "Renamed \(index - 1)")
        }
        #expect(replica.players.values.allSatisfy { $0.name.hasPrefix("Renamed") })
        #expect(replica == ReplicaState(script.league.snapshot))
    }

    @Test func readsLikeADictionaryAndComparesByContents() {
        let ids = (0..<100).map { _ in PlayerID() }
        let forward: ReplicaMap<PlayerID, Int> = ReplicaMap(ids.enumerated().map { ($1, $0) })
        let backward: ReplicaMap<PlayerID, Int> = ReplicaMap(ids.enumerated().reversed().map { ($1, $0) })
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward.count == 100 && !forward.isEmpty)
        #expect(Set(forward.keys) == Set(ids))
        #expect(forward.values.reduce(0, +) == 4_950)
        #expect(forward[ids[7]] == 7 && forward[PlayerID()] == nil)
        #expect(Dictionary(uniqueKeysWithValues: forward.map { ($0.key, $0.value) }).count == 100)
        let empty: ReplicaMap<PlayerID, Int> = [:]
        #expect(empty.isEmpty && empty != forward)
    }
}
