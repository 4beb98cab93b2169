import GoalModel
import GoalTestSlots
import Testing

/// `HistoryDiff`: each changeset's version of an entity against the next older one's.
@Suite("History diff", .slotted)
struct HistoryDiffTests {
    let writer = ClientInstanceID("history-tests")!
    let other = ClientInstanceID("history-other")!
    let ada = PlayerID()
    let bea = PlayerID()
    let id = MatchID()

    func changeset(_ revision: Revision, _ changes: [Change], author: String = "alice") -> Changeset {
        Changeset(
            revision: revision,
            mutationID: MutationID(instance: writer, seq: UInt64(revision)),
            author: author,
            time: Timestamp(millisecondsSince1970: Int64(revision) * 1000),
            action: nil,
            changes: changes,
            digest: .genesis
        )
    }

    var created: Match {
        Match(
            id: id,
            homePlayers: [ada],
            awayPlayers: [bea],
            homeGoals: 0,
            awayGoals: 0,
            created: FieldStamp(revision: 3, writer: writer)
        )
    }

    func edited(homeGoals: Int, at revision: Revision) -> Match {
        var match = created
        match.homeGoals = homeGoals
        match.stamps.homeGoals = FieldStamp(revision: revision, writer: other)
        return match
    }

    @Test("created, updated (changed fields only), deleted; newest first; the extra changeset is only a before")
    func entries() {
        let history = [
            changeset(9, [.matchDeleted(id)], author: "carol"),
            changeset(7, [.matchUpserted(edited(homeGoals: 2, at: 7))], author: "bob"),
            changeset(5, [.matchUpserted(edited(homeGoals: 1, at: 5))], author: "bob"),
            changeset(3, [.matchUpserted(created)]),
        ]
        let all = HistoryDiff.entries(of: .match(id), newestFirst: history, limit: 10)
        #expect(all.map(\.revision) == [9, 7, 5, 3])
        #expect(all.map(\.change) == [.deleted, .updated, .updated, .created])
        #expect(all.map(\.author) == ["carol", "bob", "bob", "alice"])
        #expect(all[1].fields == [FieldChange(field: .homeGoals, before: .goals(1), after: .goals(2))])
        #expect(all[0].fields.count == 4 && all[0].fields.allSatisfy { $0.after == nil && $0.before != nil })
        #expect(all[3].fields.first == FieldChange(field: .homePlayers, before: nil, after: .players([ada])))
        #expect(all[3].clientInstance == writer)

        let page = HistoryDiff.entries(of: .match(id), newestFirst: Array(history[1...3]), limit: 2)
        #expect(page.map(\.revision) == [7, 5])
        #expect(page[1].fields == [FieldChange(field: .homeGoals, before: .goals(0), after: .goals(1))])
    }

    @Test("when the older versions were pruned, the fields the revision wrote are listed with an unknown before")
    func prunedPredecessor() {
        let entries = HistoryDiff.entries(
            of: .match(id),
            newestFirst: [changeset(7, [.matchUpserted(edited(homeGoals: 2, at: 7))])],
            limit: 5
        )
        #expect(entries.map(\.change) == [.updated])
        #expect(entries[0].fields == [FieldChange(field: .homeGoals, before: nil, after: .goals(2))])
    }

    @Test("rating changes and other entities' changes are not the entity's history")
    func otherChanges() {
        let rating = Rating(playerID: ada)
        let entries = HistoryDiff.entries(
            of: .player(ada),
            newestFirst: [changeset(4, [.ratingUpdated(rating), .matchUpserted(created)])],
            limit: 5
        )
        #expect(entries.isEmpty)
        #expect(EntityRef.written(by: [.ratingUpdated(rating), .matchUpserted(created)]) == [.match(id)])
    }
}
