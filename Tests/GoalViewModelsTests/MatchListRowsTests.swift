import GoalClient
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@testable import GoalViewModels

/// The match list's replica rows, patched per changeset (`MatchListRows`), against a full re-sort and rebuild.
@Suite("MatchListRows: patched rows equal a full rebuild, and their changes are exact", .slotted)
struct MatchListRowsTests {
    /// A league driven by the conflict engine, with a replica that applies each commit as a client would.
    struct League {
        var state = LeagueState()
        var replica = ReplicaState()
        var players: [PlayerID] = []
        var matches: [MatchID] = []
        var random: SplitMix
        private var seq: UInt64 = 0
        private let instance = ClientInstanceID("list-rows-test")!

        init(seed: UInt64) {
            random = SplitMix(state: seed)
            replica.adopt(epoch: LeagueEpoch(rawValue: "epoch-1"))
        }

        /// One random mutation; the changeset it commits (nil for a refusal or a noop).
        mutating func step() -> Changeset? {
            commit(randomAction())
        }

        /// Commits `action` and applies its changeset to the replica; nil for a refusal or a noop.
        mutating func commit(_ action: MutationAction) -> Changeset? {
            seq += 1
            let mutation = Mutation(id: MutationID(instance: instance, seq: seq), base: state.revision, action: action)
            guard case .commit(let commit) = ConflictEngine.apply(mutation, author: "test", to: &state) else {
                return nil
            }
            let time = Timestamp(millisecondsSince1970: Int64(commit.revision))
            let digest = ChangesetFrame.encode(
                commit.changeset(time: time, digest: .genesis),
                previousDigest: replica.digest
            )
            .digest
            let changeset = commit.changeset(time: time, digest: digest)
            if case .createPlayer(let id, _) = action { players.append(id) }
            if case .createMatch(let id, _, _, _, _) = action { matches.append(id) }
            #expect(throws: Never.self) { try replica.apply(changeset) }
            return changeset
        }

        private mutating func randomAction() -> MutationAction {
            let roll = random.below(100)
            if players.count < 4 || roll < 8 {
                return .createPlayer(id: PlayerID(), name: "Player \(players.count) \(random.below(1_000))")
            }
            if matches.isEmpty || roll < 35 {
                let picks = random.distinct(4, below: players.count)
                return .createMatch(
                    id: MatchID(),
                    homePlayers: [players[picks[0]], players[picks[1]]],
                    awayPlayers: [players[picks[2]], players[picks[3]]],
                    homeGoals: random.below(10),
                    awayGoals: random.below(10)
                )
            }
            let match = matches[random.below(matches.count)]
            let player = players[random.below(players.count)]
            switch roll {
            case 35..<65: return .adjustGoals(id: match, side: random.below(2) == 0 ? .home : .away, delta: 1)
            case 65..<75: return .updateMatch(id: match, MatchUpdate(homePlayers: [player]))
            case 75..<85: return .renamePlayer(id: player, name: "Renamed \(random.below(10_000))")
            case 85..<95: return .deleteMatch(id: match)
            default: return .deletePlayer(id: player)
            }
        }
    }

    static func rebuilt(_ replica: ReplicaState, dates: MatchDates = MatchDates()) -> [MatchRow] {
        replica.matchesNewestFirst().map { MatchListRows.row($0, in: replica, created: dates[$0.id]) }
    }

    @Test(
        "over many random changesets, one update each: equal rows, the diff's changes, the old cursor, one rebuild",
        arguments: [1, 2, 3] as [UInt64]
    )
    func oneByOne(seed: UInt64) {
        var league = League(seed: seed)
        var list = MatchListRows()
        var dates = MatchDates()
        list.update(to: league.replica, dates: dates)
        var cursor = ListCursor<MatchID>()
        var reference = ReferenceCursor<MatchID>()
        var applied = 0
        while applied < 800 {
            guard let changeset = league.step() else { continue }
            applied += 1
            dates.record(changeset)
            list.record(.changeset(changeset))
            let old = list.rows
            let changes = list.update(to: league.replica, dates: dates)
            let expected = Self.rebuilt(league.replica, dates: dates)
            #expect(Array(list.rows) == expected, "after revision \(changeset.revision)")
            #expect(changes.applied(to: Array(old), new: expected) == expected, "replayed changes give the rows")
            #expect(changes == RowChanges(old: Array(old), new: expected), "exactly the diff's changes")
            if Array(list.rows) != expected { return }

            let rows = list.rows
            cursor.follow(
                oldCount: old.count,
                oldID: { old[$0].id },
                newCount: rows.count,
                newID: { rows[$0].id },
                newIndex: { list.index(of: $0) },
                removedHere: { _ in false }
            )
            reference.follow(from: old.map(\.id), to: expected.map(\.id), removedHere: { _ in false })
            #expect(reference.matches(cursor), "revision \(changeset.revision): \(cursor) vs \(reference)")
            if applied % 7 == 0, !expected.isEmpty {
                // Another explicit selection, anywhere in the list.
                let index = league.random.below(expected.count)
                cursor.select(expected[index].id, at: list.index(of: expected[index].id))
                reference.select(expected[index].id, in: expected.map(\.id))
            }
        }
        #expect(list.rows.contains { $0.created != nil }, "matches created by changesets carry their time")
        #expect(league.replica.matches.count > 50)
        #expect(list.rebuilds == 1)
        for (index, row) in list.rows.enumerated() { #expect(list.index(of: row.id) == index) }
    }

    @Test("batches, updates seen late, snapshots and another epoch: equal rows")
    func batchesAndResets() {
        var league = League(seed: 9)
        var list = MatchListRows()
        var expectedRebuilds = 0
        for round in 0..<300 {
            let batch = league.random.below(5) + 1
            var changesets: [Changeset] = []
            while changesets.count < batch {
                if let changeset = league.step() { changesets.append(changeset) }
            }
            switch round % 50 {
            case 10:
                // The batch's updates arrive after the rows were brought to the replica (GoalClient publishes a
                // backlog batch first): one rebuild, then the late updates change nothing.
                list.update(to: league.replica)
                expectedRebuilds += 1
                for changeset in changesets { list.record(.changeset(changeset)) }
            case 20:
                league.replica = ReplicaState(league.replica.snapshot!)
                list.record(.snapshot(revision: league.replica.revision))
                expectedRebuilds += 1
            case 30:
                // Another epoch empties the replica (no update is sent for that); then a snapshot refills it.
                let digest = league.replica.digest
                league.replica.adopt(epoch: LeagueEpoch(rawValue: "epoch-\(round)"))
                list.update(to: league.replica)
                expectedRebuilds += 1
                #expect(list.rows.isEmpty)
                league.replica = ReplicaState(snapshotOf: league.state, digest: digest)
                list.record(.snapshot(revision: league.replica.revision))
                expectedRebuilds += 1
            default:
                for changeset in changesets { list.record(.changeset(changeset)) }
            }
            if round == 0 { expectedRebuilds += 1 }
            let old = list.rows
            let changes = list.update(to: league.replica)
            let expected = Self.rebuilt(league.replica)
            #expect(Array(list.rows) == expected, "round \(round)")
            #expect(changes.applied(to: Array(old), new: expected) == expected, "round \(round): replayed changes")
        }
        #expect(list.rebuilds == expectedRebuilds)
    }
}

extension ReplicaState {
    /// A replica holding a league's state (what a snapshot of it would give).
    fileprivate init(snapshotOf state: LeagueState, digest: Digest) {
        self.init(
            Snapshot(
                revision: state.revision,
                epoch: LeagueEpoch(rawValue: "epoch-1"),
                digest: digest,
                players: Array(state.allPlayers),
                matches: Array(state.allMatches),
                ratings: Array(state.allRatings)
            )
        )
    }
}

/// SplitMix64, so every run builds the same history.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func distinct(_ count: Int, below bound: Int) -> [Int] {
        var picked: [Int] = []
        while picked.count < count {
            let value = below(bound)
            if !picked.contains(value) { picked.append(value) }
        }
        return picked
    }
}
