import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import GoalWire
import Testing

/// A fresh GoalClient joining a league of 10,000 matches receives it as a chunked snapshot over real TLS and
/// its view models show every match.
@MainActor
@Suite("Live: a 10,000-match snapshot", .serialized, .slotted)
struct LiveSnapshotTests {
    static let matchCount = 10_000
    static let playerCount = 24

    @Test("10,000 matches arrive in several chunks, are applied, and the match list inserts them all")
    func tenThousandMatches() async throws {
        let storage = InMemoryLeagueStorage()
        var seed = LeagueSeed()
        let players = (0..<Self.playerCount).map { _ in PlayerID() }
        for (index, id) in players.enumerated() { seed.commit(.createPlayer(id: id, name: "Player \(index)")) }
        for index in 0..<Self.matchCount {
            let home = players[index % Self.playerCount]
            let away = players[(index + 1 + index / Self.playerCount % (Self.playerCount - 1)) % Self.playerCount]
            seed.commit(
                .createMatch(
                    id: MatchID(),
                    homePlayers: [home],
                    awayPlayers: [away],
                    homeGoals: index % 10,
                    awayGoals: index % 7
                )
            )
        }
        try seed.write(to: storage)
        let head = Revision(Self.playerCount + Self.matchCount)
        #expect(seed.state.revision == head)

        try await withLiveHarness(storage: storage) { harness in
            let daemon = try harness.running()
            let viewer = try harness.stack(token: daemon.tokens.viewer, instance: "live-snapshot-viewer")
            let updates = Recorder(viewer.store.updates)
            let matches = MatchesViewModel(store: viewer.store)
            let changes = Recorder(matches.contentChanges)
            let loading = Recorder(matches.isLoading)
            // Activating the list refreshes, which starts the idle client.
            matches.active.value = true
            try await pollUntil("the list to load", timeout: .seconds(120)) { !changes.values.isEmpty }
            #expect(viewer.store.status.value.isLive)

            #expect(viewer.relay.inboundCount("snapshot_begin") == 1)
            #expect(viewer.relay.inboundCount("snapshot_chunk") > 1, "the snapshot came in several chunks")
            #expect(viewer.relay.inboundCount("snapshot_end") == 1)
            #expect(viewer.relay.inboundCount("changeset") == 0)
            #expect(updates.take() == [.snapshot(revision: head)])

            let replica = viewer.store.replica.value
            #expect(replica.revision == head)
            #expect(replica.matches.count == Self.matchCount)
            #expect(replica.players.count == Self.playerCount)
            #expect(replica.digest == seed.digest)
            #expect(replica.ratings.values.map(\.played).reduce(0, +) == 2 * Self.matchCount)

            #expect(changes.take() == [RowChanges(insertions: Array(0..<Self.matchCount))])
            #expect(loading.take() == [false, true, false])
            #expect(matches.numberOfMatches(inSection: 0) == Self.matchCount)
            let newestID = try #require(replica.matchesNewestFirst().first?.id)
            let newest = try #require(seed.state.match(newestID))
            #expect(matches.result(at: 0) == "\(newest.homeGoals) : \(newest.awayGoals)")
            #expect(matches.result(at: 0) == "\((Self.matchCount - 1) % 10) : \((Self.matchCount - 1) % 7)")
        }
    }
}
