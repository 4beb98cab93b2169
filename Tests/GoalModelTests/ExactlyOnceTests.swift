import GoalModel
import GoalTestSlots
import Testing

/// docs/RULES.md "Exactly once": a repeated (instance, seq) is answered with the original result and never
/// applied twice; the same id with another payload is `id_reused`; an id older than the kept results is
/// `id_expired`.
@Suite("Exactly once", .slotted)
struct ExactlyOnceTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Client A's mutation, sent at the fixture revision.
        let original: MutationAction
        /// What the first send must yield.
        let firstOutcome: @Sendable (MutationOutcome) -> Bool
        /// Other clients' steps between the send and the retry (each must commit).
        let meanwhile: [MutationAction]
        var testDescription: String { name }
    }

    @Test(
        "A retry returns the original outcome and commits nothing",
        arguments: [
            Row(
                name: "ack",
                original: update(1, homeGoals: 2),
                firstOutcome: { $0 == .committed(9) },
                meanwhile: [update(1, homeGoals: 5)]
            ),
            Row(
                name: "rejection (player_in_use), although the delete would now succeed",
                original: deletePlayer(1),
                firstOutcome: { if case .rejected(let r) = $0 { r.code == .playerInUse } else { false } },
                meanwhile: [deleteMatch(1)]
            ),
            Row(
                name: "conflict keeps the entity as it was then",
                original: update(1, homeGoals: 4),
                firstOutcome: { if case .rejected(let r) = $0 { r.code == .conflict } else { false } },
                meanwhile: [update(1, homeGoals: 7)]
            ),
            Row(
                name: "noop keeps its revision",
                original: update(1, homeGoals: 0),
                firstOutcome: { $0 == .noop(8) },
                meanwhile: [adjust(1, .home, 3)]
            ),
            Row(
                name: "increment is not counted twice",
                original: adjust(1, .home, 1),
                firstOutcome: { $0 == .committed(9) },
                meanwhile: [adjust(1, .home, 1)]
            ),
        ]
    )
    func retry(_ row: Row) throws {
        var league = League.standard()
        if row.name.hasPrefix("conflict") { league.run(update(1, homeGoals: 3), by: clientB) }
        let mutation = Mutation(id: league.nextID(clientA), base: League.fixtureRevision, action: row.original)
        let first = ConflictEngine.apply(mutation, author: "a", to: &league.state)
        #expect(row.firstOutcome(first.outcome), "\(first)")
        for action in row.meanwhile { try #require(league.run(action, by: clientB).commit != nil) }

        let before = league.state
        let retry = ConflictEngine.apply(mutation, author: "a", to: &league.state)
        #expect(retry == .duplicate(first.outcome))
        #expect(league.state == before, "a duplicate must change nothing, not even the client table")
        #expect(ConflictEngine.apply(mutation, author: "a", to: &league.state) == .duplicate(first.outcome))
    }

    @Test(
        "The same id with another payload is id_reused and changes nothing",
        arguments: [
            update(1, homeGoals: 3), update(1, awayGoals: 2), adjust(1, .home, 2), deleteMatch(1), rename(1, "Alice"),
        ]
    )
    func reused(_ other: MutationAction) {
        var league = League.standard()
        let id = league.nextID(clientA)
        let original = Mutation(id: id, base: 8, action: update(1, homeGoals: 2))
        let first = ConflictEngine.apply(original, author: "a", to: &league.state)
        let before = league.state
        let decision = ConflictEngine.apply(Mutation(id: id, base: 9, action: other), author: "a", to: &league.state)
        #expect(decision.rejection?.code == .idReused)
        #expect(league.state == before)
        #expect(ConflictEngine.apply(original, author: "a", to: &league.state) == .duplicate(first.outcome))
    }

    @Test("Another base is another payload")
    func reusedBase() {
        var league = League.standard()
        let id = league.nextID(clientA)
        _ = ConflictEngine.apply(Mutation(id: id, base: 8, action: adjust(1, .home, 1)), author: "a", to: &league.state)
        let decision = ConflictEngine.apply(
            Mutation(id: id, base: 7, action: adjust(1, .home, 1)),
            author: "a",
            to: &league.state
        )
        #expect(decision.rejection?.code == .idReused)
    }

    @Test("Ids older than the last 32 results are id_expired; the kept ones still answer")
    func expired() {
        var league = League.standard()
        var sent: [Mutation] = []
        var outcomes: [MutationOutcome] = []
        for n in 0..<40 {
            let mutation = Mutation(
                id: league.nextID(clientA),
                base: league.state.revision,
                action: adjust(1, .home, n % 2 == 0 ? 1 : -1)
            )
            sent.append(mutation)
            outcomes.append(ConflictEngine.apply(mutation, author: "a", to: &league.state).outcome)
        }
        let before = league.state
        for (index, mutation) in sent.enumerated() {
            let decision = ConflictEngine.apply(mutation, author: "a", to: &league.state)
            if index < 40 - ClientRecord.keptResults {
                #expect(decision.rejection?.code == .idExpired, "seq \(mutation.id.seq)")
            } else {
                #expect(decision == .duplicate(outcomes[index]), "seq \(mutation.id.seq)")
            }
        }
        #expect(league.state == before)
        let record = league.state.clientRecord(for: clientA)
        #expect(record?.lastSeq == 40)
        #expect(record?.results.map(\.seq) == Array(9...40))
    }

    @Test("An unseen seq inside the window (sent out of order) is applied once; ids are per instance")
    func outOfOrderAndInstances() {
        var league = League.standard()
        let late = Mutation(id: MutationID(instance: clientA, seq: 1), base: 8, action: adjust(1, .home, 1))
        let early = Mutation(id: MutationID(instance: clientA, seq: 2), base: 8, action: adjust(1, .away, 1))
        let applied = ConflictEngine.apply(early, author: "a", to: &league.state)
        #expect(applied == .commit(league.lastCommitStub(9, early)))
        let first = ConflictEngine.apply(late, author: "a", to: &league.state)
        #expect(first.commit?.revision == 10)
        #expect(ConflictEngine.apply(late, author: "a", to: &league.state) == .duplicate(.committed(10)))
        let other = Mutation(id: MutationID(instance: clientB, seq: 1), base: 10, action: adjust(1, .home, 1))
        #expect(ConflictEngine.apply(other, author: "b", to: &league.state).commit?.revision == 11)
        #expect(league.state.clientRecord(for: clientA)?.results.map(\.seq) == [1, 2])
    }

    @Test("Every recorded outcome is in the client's record: acks, noops and rejections")
    func recorded() {
        var league = League.standard()
        let ack = league.run(update(1, homeGoals: 1), by: clientA)
        let noop = league.run(update(1, homeGoals: 1), by: clientA)
        let rejection = league.run(deletePlayer(1), by: clientA)
        let record = league.state.clientRecord(for: clientA)
        #expect(record?.results.map(\.outcome) == [ack.outcome, noop.outcome, rejection.outcome])
        #expect(record?.results.map(\.seq) == [1, 2, 3])
    }

    @Test("Fingerprints are stable across processes (persisted by the store)")
    func fingerprintStable() {
        let mutation = Mutation(
            id: MutationID(instance: clientA, seq: 1),
            base: 8,
            action: .updateMatch(id: mid(1), MatchUpdate(homePlayers: [pid(1)], homeGoals: 2))
        )
        #expect(PayloadFingerprint(mutation) == PayloadFingerprint(mutation))
        #expect(PayloadFingerprint(mutation).rawValue == 0xdbc4_0ed2_7611_a183)
        var other = mutation
        other.id.seq = 99
        #expect(PayloadFingerprint(other) == PayloadFingerprint(mutation), "the id is not part of the payload")
        other.action = .updateMatch(id: mid(1), MatchUpdate(homePlayers: [pid(1)], awayGoals: 2))
        #expect(PayloadFingerprint(other) != PayloadFingerprint(mutation))
    }
}

extension League {
    /// The commit a single-field adjust on m1 makes at `revision` in the standard fixture (for equality checks).
    func lastCommitStub(_ revision: Revision, _ mutation: Mutation) -> Commit {
        let match = state.match(mid(1))!
        return Commit(
            revision: revision,
            mutationID: mutation.id,
            author: "a",
            action: mutation.action,
            changes: [
                .matchUpserted(match), .ratingUpdated(state.rating(of: pid(1))!),
                .ratingUpdated(state.rating(of: pid(2))!),
            ]
        )
    }
}

/// Issue 14 point 10: the table's records carry when they were last used, and idle ones can be forgotten.
@Suite("exactly-once records: last use and forgetting", .slotted)
struct ClientRecordForgettingTests {
    @Test("lastUsed never moves back; forgetting removes only records used before the cutoff")
    func forgetting() {
        var state = LeagueState()
        let a = ClientInstanceID("instance-a")!
        let b = ClientInstanceID("instance-b")!
        for (instance, seq) in [(a, UInt64(1)), (b, 1)] {
            let mutation = Mutation(
                id: MutationID(instance: instance, seq: seq),
                base: state.revision,
                action: .createPlayer(id: PlayerID(), name: "\(instance)")
            )
            _ = ConflictEngine.apply(mutation, author: "editor", to: &state)
        }
        state.markClientRecordUsed(a, at: Timestamp(millisecondsSince1970: 5_000))
        state.markClientRecordUsed(a, at: Timestamp(millisecondsSince1970: 4_000))
        state.markClientRecordUsed(b, at: Timestamp(millisecondsSince1970: 2_000))
        #expect(state.clientRecord(for: a)?.lastUsed == Timestamp(millisecondsSince1970: 5_000), "a clock step back")
        #expect(state.forgetClientRecords(usedBefore: Timestamp(millisecondsSince1970: 2_000)).isEmpty)
        #expect(state.forgetClientRecords(usedBefore: Timestamp(millisecondsSince1970: 5_000)) == [b])
        #expect(state.clientRecordCount == 1)
        #expect(state.clientRecord(for: b) == nil)
        #expect(state.clientRecord(for: a)?.lastSeq == 1)
    }
}
