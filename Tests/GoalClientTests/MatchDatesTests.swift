import GoalClient
import GoalModel
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

/// `MatchDates`, the match list's dates (issue 20 point 5): a creating changeset's time is recorded at once; a
/// snapshot match is asked about with one request for its creating revision, one at a time; a pruned creation or a
/// refusal leaves it without a date, never asked again.
@Suite("MatchDates: match dates from changesets and history answers", .slotted)
struct MatchDatesTests {
    /// Two players and a match (r3), then a goal on it (r4).
    static func league() -> (LeagueScript, MatchID, created: Changeset, goal: Changeset) {
        var script = LeagueScript()
        script.player("Ada")
        script.player("Bea")
        let match = MatchID()
        let created = script.commit(
            .createMatch(
                id: match,
                homePlayers: [script.players[0]],
                awayPlayers: [script.players[1]],
                homeGoals: 0,
                awayGoals: 0
            )
        )
        let goal = script.commit(.adjustGoals(id: match, side: .home, delta: 1))
        return (script, match, created, goal)
    }

    static func entry(_ revision: Revision, _ time: Int64, _ change: HistoryChangeKind) -> HistoryEntry {
        HistoryEntry(
            revision: revision,
            time: Timestamp(millisecondsSince1970: time),
            author: "alice",
            clientInstance: nil,
            action: nil,
            change: change,
            fields: []
        )
    }

    @Test("a changeset that creates a match records its time; a later edit of the match does not move it")
    func creatingChangesetRecordsTheTime() {
        let (_, match, created, goal) = Self.league()
        var dates = MatchDates()
        dates.record(created)
        dates.record(goal)
        #expect(dates[match] == created.time)
        #expect(goal.time != created.time)
        #expect(dates.times.count == 1)
    }

    @Test("a deleted match forgets its date")
    func deletionForgets() {
        var (script, match, created, _) = Self.league()
        var dates = MatchDates()
        dates.record(created)
        dates.record(script.commit(.deleteMatch(id: match)))
        #expect(dates[match] == nil)
    }

    @Test("a snapshot match: one request for exactly its creating revision, and the answer's created entry dates it")
    func snapshotMatchAsksItsCreation() {
        let (script, match, created, _) = Self.league()
        let replica = ReplicaState(script.league.snapshot)
        var dates = MatchDates()
        let matches = Array(replica.matches.values)
        let request = dates.nextRequest(for: matches)
        #expect(request == HistoryRequest(entity: .match(match), before: created.revision + 1, limit: 1))
        let second = dates.nextRequest(for: matches)
        #expect(second == nil, "one request at a time")
        let page = HistoryPageMessage(
            entries: [Self.entry(created.revision, created.time.millisecondsSince1970, .created)],
            nextBefore: nil,
            retainedFrom: 1,
            pruned: false
        )
        let learned = dates.answered(page)
        #expect(learned)
        #expect(dates[match] == created.time)
        let after = dates.nextRequest(for: matches)
        #expect(after == nil, "every shown date is known")
    }

    @Test("a creation the log no longer holds leaves the date unknown and is not asked about again")
    func prunedCreationStaysUnknown() {
        let (script, match, _, _) = Self.league()
        let matches = Array(ReplicaState(script.league.snapshot).matches.values)
        var dates = MatchDates()
        let request = dates.nextRequest(for: matches)
        #expect(request != nil)
        let learned = dates.answered(HistoryPageMessage(entries: [], nextBefore: nil, retainedFrom: 9, pruned: true))
        #expect(!learned)
        #expect(dates[match] == nil)
        let again = dates.nextRequest(for: matches)
        #expect(again == nil)
    }

    @Test("a refusal leaves that match undated; a stopped client asks again; a server without history ends asking")
    func failures() {
        let (script, _, _, _) = Self.league()
        let matches = Array(ReplicaState(script.league.snapshot).matches.values)
        var refused = MatchDates()
        let asked = refused.nextRequest(for: matches)
        #expect(asked != nil)
        refused.failed(HistoryError(.refused(.unknownEntity), "gone"))
        let afterRefusal = refused.nextRequest(for: matches)
        #expect(afterRefusal == nil)

        var stopped = MatchDates()
        let first = stopped.nextRequest(for: matches)
        #expect(first != nil)
        stopped.failed(HistoryError(.stopped, "not connected"))
        let retried = stopped.nextRequest(for: matches)
        #expect(retried == first)

        var unsupported = MatchDates()
        let sent = unsupported.nextRequest(for: matches)
        #expect(sent != nil)
        unsupported.failed(HistoryError(.unsupported, "old goald"))
        let afterUnsupported = unsupported.nextRequest(for: matches)
        #expect(afterUnsupported == nil)
    }

    @Test("the first undated match in the order given is asked first; an answer for a match deleted since is dropped")
    func orderAndDeletionWhileAsking() {
        var (script, first, _, _) = Self.league()
        let second = MatchID()
        script.commit(
            .createMatch(
                id: second,
                homePlayers: [script.players[1]],
                awayPlayers: [script.players[0]],
                homeGoals: 1,
                awayGoals: 1
            )
        )
        let replica = ReplicaState(script.league.snapshot)
        let shown = replica.matchesNewestFirst()
        #expect(shown.map(\.id) == [second, first])
        var dates = MatchDates()
        let request = dates.nextRequest(for: shown)
        #expect(request?.entity == .match(second))
        let deletion = script.commit(.deleteMatch(id: second))
        dates.record(deletion)
        let page = HistoryPageMessage(
            entries: [Self.entry(5, 42, .created)],
            nextBefore: nil,
            retainedFrom: 1,
            pruned: false
        )
        let learned = dates.answered(page)
        #expect(!learned)
        #expect(dates[second] == nil)
        let next = dates.nextRequest(for: shown.filter { $0.id != second })
        #expect(next?.entity == .match(first))
    }

    @Test("a snapshot keeps the dates of the matches it still holds and forgets the others")
    func snapshotKeepsKnownDates() {
        var (script, match, created, _) = Self.league()
        var dates = MatchDates()
        dates.record(created)
        let other = MatchID()
        dates.record(
            script.commit(
                .createMatch(
                    id: other,
                    homePlayers: [script.players[0]],
                    awayPlayers: [script.players[1]],
                    homeGoals: 0,
                    awayGoals: 0
                )
            )
        )
        script.commit(.deleteMatch(id: other))
        dates.keep(only: ReplicaState(script.league.snapshot))
        #expect(dates.times == [match: created.time])
    }
}
