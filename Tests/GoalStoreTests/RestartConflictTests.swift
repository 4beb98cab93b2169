import GoalModel
import GoalStore
import GoalTestSlots
import Testing

/// The conflict rules and exactly-once must hold across a daemon restart: stamps and the exactly-once table come
/// back from SQLite, not from memory.
@Suite("Conflicts and exactly-once across a restart", .slotted)
struct RestartConflictTests {
    @Test(
        "an edit persisted before a restart conflicts with an old-base edit after it; a repeated id gets its original outcome"
    )
    func conflictSpansRestart() throws {
        let harness = try StoreHarness(.sqlite)
        let ids = Ids()
        var before = LeagueDriver()
        before.seedFourPlayersAndMatch(ids)
        try harness.storage.append(before.takeBatch())
        // Both editors opened their forms at revision 5; alpha saves first.
        let edit = Mutation(
            id: MutationID(instance: .alpha, seq: 6),
            base: 5,
            action: .updateMatch(id: ids.match, MatchUpdate(homeGoals: 3))
        )
        let first = before.mutate(edit.action, by: .alpha, seq: edit.id.seq, base: edit.base)
        #expect(first.outcome == .committed(6))
        try harness.storage.append(before.takeBatch())

        try harness.reopen()
        let league = try harness.storage.recover()
        #expect(league.state == before.state)
        var after = LeagueDriver(recovered: league)

        let late = after.mutate(.updateMatch(id: ids.match, MatchUpdate(homeGoals: 4)), by: .beta, base: 5)
        guard case .rejected(let rejection) = late else {
            Issue.record("expected a conflict, got \(late)")
            return
        }
        #expect(rejection.code == .conflict)
        #expect(rejection.fields == [MatchField.homeGoals.rawValue])
        guard case .match(let current) = rejection.current else {
            Issue.record("the conflict must carry the current match")
            return
        }
        #expect(current.homeGoals == 3 && current.stamps.homeGoals == FieldStamp(revision: 6, writer: .alpha))

        // Disjoint fields still merge: beta's away goals from the same old base apply.
        #expect(
            after.mutate(.updateMatch(id: ids.match, MatchUpdate(awayGoals: 1)), by: .beta, base: 5).outcome
                == .committed(7)
        )

        let repeated = after.mutate(edit.action, by: .alpha, seq: edit.id.seq, base: edit.base)
        #expect(repeated == .duplicate(.committed(6)))
        let reused = after.mutate(
            .updateMatch(id: ids.match, MatchUpdate(homeGoals: 8)),
            by: .alpha,
            seq: edit.id.seq,
            base: 5
        )
        #expect(reused.outcome.rejectionCode == .idReused)

        let batch = after.takeBatch()
        #expect(batch.commits.map(\.revision) == [7])
        try harness.storage.append(batch)
        try harness.reopen()
        let final = try harness.storage.recover()
        #expect(final.state == after.state)
        #expect(final.state.match(ids.match)?.homeGoals == 3)
        var again = LeagueDriver(recovered: final)
        #expect(again.mutate(edit.action, by: .alpha, seq: edit.id.seq, base: edit.base) == .duplicate(.committed(6)))
        #expect(
            again.mutate(.updateMatch(id: ids.match, MatchUpdate(homeGoals: 4)), by: .beta, seq: 1, base: 5)
                == .duplicate(late.outcome)
        )
    }
}
