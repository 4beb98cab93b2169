import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import GoalViewModels
import GoalWire
import Testing

/// Match dates on the match list against a real goald (issue 20 point 5): a client that joined by snapshot asks
/// the server's history for the shown matches' creations, one request at a time, and dates the rows; a creation
/// past the log's retention leaves its row undated; a match created while the client watches is dated from its
/// changeset at once.
@MainActor
@Suite("Live: match dates through history", .slotted)
struct LiveMatchDatesTests {
    @Test(
        "a snapshot match is dated by a history answer, a pruned creation stays undated, a new match is dated at once"
    )
    func snapshotMatchesAreDatedThroughHistory() async throws {
        let storage = InMemoryLeagueStorage(retention: RetentionPolicy(maximumChangesets: 2, chunkSize: 1))
        try await withLiveHarness(storage: storage) { harness in
            let daemon = try harness.running()
            let editor = try await harness.connectedStack(token: daemon.tokens.editor, instance: "dates-editor")
            let updates = Recorder(editor.store.updates)
            let (ada, bea, old, new) = (PlayerID(), PlayerID(), MatchID(), MatchID())
            var base: Revision = 0
            for action in [
                MutationAction.createPlayer(id: ada, name: "Ada"),
                .createPlayer(id: bea, name: "Bea"),
                .createMatch(id: old, homePlayers: [ada], awayPlayers: [bea], homeGoals: 0, awayGoals: 0),
                .createMatch(id: new, homePlayers: [bea], awayPlayers: [ada], homeGoals: 0, awayGoals: 0),
                .adjustGoals(id: new, side: .home, delta: 1),
            ] {
                base = try await LiveFailoverTests.perform(editor.client, action, base: base).revision
            }
            #expect(base == 5)
            try await editor.waitForRevision(5)
            let created = try #require(Self.changeset(4, in: updates.values)).time
            // The log keeps r4 and r5: the old match's creation (r3) is gone, the new one's is there.
            #expect(try storage.prune(now: Timestamp(millisecondsSince1970: 0)).oldestRetainedRevision == 4)

            let viewer = try harness.stack(token: daemon.tokens.viewer, instance: "dates-viewer")
            let matches = MatchesViewModel(store: viewer.store)
            let changes = Recorder(matches.contentChanges)
            matches.active.value = true
            try await pollUntil("the viewer's list to load") { !changes.values.isEmpty && !matches.isLoading.value }
            #expect(viewer.relay.inboundCount("snapshot_begin") == 1, "the viewer joined by snapshot")
            #expect(matches.rows.map(\.id) == [new, old])
            #expect(matches.rows.map(\.created) == [nil, nil], "a snapshot carries no dates")

            matches.showing(matches.rows.map(\.id))
            try await pollUntil("the new match's date from history") { matches.rows.first?.created == created }
            try await pollUntil("both creations asked about") { viewer.relay.inboundCount("history") == 2 }
            #expect(matches.rows.last?.created == nil, "the old match's creation was pruned: no date, no error")
            matches.showing(matches.rows.map(\.id))
            #expect(viewer.relay.inboundCount("history") == 2, "a decided date is not asked again")

            // A match created while the viewer watches is dated from its changeset, without a history request.
            let viewerUpdates = Recorder(viewer.store.updates)
            let third = MatchID()
            let ack = try await LiveFailoverTests.perform(
                editor.client,
                .createMatch(id: third, homePlayers: [ada], awayPlayers: [bea], homeGoals: 2, awayGoals: 2),
                base: base
            )
            try await viewer.waitForRevision(ack.revision)
            let thirdCreated = try #require(Self.changeset(ack.revision, in: viewerUpdates.values)).time
            #expect(matches.rows.first?.id == third)
            #expect(matches.rows.first?.created == thirdCreated)
            matches.showing(matches.rows.map(\.id))
            #expect(viewer.relay.inboundCount("history") == 2)
        }
    }

    static func changeset(_ revision: Revision, in updates: [ReplicaUpdate]) -> Changeset? {
        for case .changeset(let changeset) in updates where changeset.revision == revision { return changeset }
        return nil
    }
}
