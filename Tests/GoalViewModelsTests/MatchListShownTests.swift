import GoalClient
import GoalModel
import GoalTestSlots
import Testing

@testable import GoalViewModels

/// The match list as shown (`MatchListShown`): replica rows with this client's pending creations on top and its
/// pending marks, against a full rebuild, with changes that replay exactly and a cursor that follows as the
/// diff-based path did.
@Suite("MatchListShown: pending marks patched in, changes exact", .slotted)
struct MatchListShownTests {
    /// The rows as `MatchesViewModel` showed them before (rebuilt arrays): creations on top, then the replica's
    /// matches newest first, marked pending with their optimistic score.
    static func rebuilt(_ replica: ReplicaState, pending: [PendingMutation]) -> [MatchRow] {
        let set = PendingSet(pending, replica: replica)
        let score = OptimisticScore(pending, replica: replica, applied: [])
        let created = set.createdMatches.map { match in
            MatchListRows.row(
                match,
                in: replica,
                result: score.result(of: match),
                isPending: set.matches.contains(match.id)
            )
        }
        let listed = replica.matchesNewestFirst().map { match in
            set.matches.contains(match.id)
                ? MatchListRows.row(match, in: replica, result: score.result(of: match), isPending: true)
                : MatchListRows.row(match, in: replica)
        }
        return created + listed
    }

    @Test(
        "random changesets, creations committed or dropped, goals pending: equal rows, replayable changes",
        arguments: [1, 2, 3] as [UInt64]
    )
    func randomPending(seed: UInt64) {
        var league = MatchListRowsTests.League(seed: seed)
        var shown = MatchListShown()
        var pending: [PendingMutation] = []
        var seq: UInt64 = 0
        let here = ClientInstanceID("shown-test")!
        var cursor = ListCursor<MatchID>()
        var reference = ReferenceCursor<MatchID>()
        var crossings = 0
        var moves = 0
        for round in 0..<600 {
            let roll = league.random.below(100)
            if roll < 40 {
                if let changeset = league.step() { shown.record(.changeset(changeset)) }
            } else if roll < 55, league.players.count >= 4 {
                // This client starts creating a match.
                let picks = league.random.distinct(4, below: league.players.count)
                seq += 1
                let action = MutationAction.createMatch(
                    id: MatchID(),
                    homePlayers: [league.players[picks[0]], league.players[picks[1]]],
                    awayPlayers: [league.players[picks[2]], league.players[picks[3]]],
                    homeGoals: league.random.below(10),
                    awayGoals: league.random.below(10)
                )
                pending.append(Self.pending(action, here, seq, league.replica.revision))
            } else if roll < 70, !league.matches.isEmpty {
                // A goal pending on a listed match.
                seq += 1
                let match = league.matches[league.random.below(league.matches.count)]
                let action = MutationAction.adjustGoals(id: match, side: .home, delta: 1)
                pending.append(Self.pending(action, here, seq, league.replica.revision))
            } else if roll < 90, !pending.isEmpty {
                // A pending mutation is answered, mostly the oldest, sometimes another (answers out of order make a
                // committed creation cross over the creations still on top: a move): committed (its changeset
                // first) or refused.
                let first = pending.remove(at: league.random.below(3) == 0 ? league.random.below(pending.count) : 0)
                if league.random.below(4) > 0, let changeset = league.commit(first.mutation.action) {
                    if case .createMatch = first.mutation.action { crossings += 1 }
                    shown.record(.changeset(changeset))
                }
            }
            let old = shown.rows
            let changes = shown.update(
                to: league.replica,
                pending: PendingSet(pending, replica: league.replica),
                score: OptimisticScore(pending, replica: league.replica, applied: []),
                dates: MatchDates()
            )
            let expected = Self.rebuilt(league.replica, pending: pending)
            #expect(Array(shown.rows) == expected, "round \(round)")
            #expect(changes.applied(to: Array(old), new: expected) == expected, "round \(round): replay")
            #expect(changes.moves.count <= RowChanges(old: Array(old), new: expected).moves.count + 1)
            moves += changes.moves.count
            if Array(shown.rows) != expected { return }
            for (index, row) in expected.enumerated() where index % 17 == 0 {
                #expect(shown.index(of: row.id) == index)
            }

            let rows = shown.rows
            cursor.follow(
                oldCount: old.count,
                oldID: { old[$0].id },
                newCount: rows.count,
                newID: { rows[$0].id },
                newIndex: { shown.index(of: $0) },
                removedHere: { _ in false }
            )
            reference.follow(from: old.map(\.id), to: expected.map(\.id), removedHere: { _ in false })
            #expect(reference.matches(cursor), "round \(round): \(cursor) vs \(reference)")
            if round % 11 == 0, !expected.isEmpty {
                let index = league.random.below(expected.count)
                cursor.select(expected[index].id, at: shown.index(of: expected[index].id))
                reference.select(expected[index].id, in: expected.map(\.id))
            }
        }
        #expect(crossings > 10, "creations of this client committed: rows crossed from the top into the replica's")
        #expect(moves > 0, "some committed creations moved past the ones still pending")
        #expect(shown.listed.rebuilds == 1)
    }

    private static func pending(
        _ action: MutationAction,
        _ instance: ClientInstanceID,
        _ seq: UInt64,
        _ base: Revision
    ) -> PendingMutation {
        PendingMutation(
            mutation: Mutation(id: MutationID(instance: instance, seq: seq), base: base, action: action),
            isSent: true
        )
    }
}
