import GoalModel
import GoalTestSlots
import Testing

/// The lean form of a changeset (protocol 2 `delta`): made only from the shapes the engine commits, and expanded
/// only against the replica it belongs to. (Every engine commit's round trip is checked in RandomizedEngineTests.)
@Suite("ChangesetDelta: which changesets have a lean form, and what expanding refuses", .slotted)
struct ChangesetDeltaTests {
    static let time = Timestamp(millisecondsSince1970: 1_767_225_600_000)

    static func changeset(
        _ changes: [Change],
        by instance: ClientInstanceID? = clientA,
        at revision: Revision = 5
    )
        -> Changeset
    {
        Changeset(
            revision: revision,
            mutationID: instance.map { MutationID(instance: $0, seq: 1) },
            author: "alice",
            time: time,
            action: nil,
            changes: changes,
            digest: .genesis
        )
    }

    static func stamp(_ revision: Revision, _ writer: ClientInstanceID = clientA) -> FieldStamp {
        FieldStamp(revision: revision, writer: writer)
    }

    static func match(created: FieldStamp, stamps: MatchStamps? = nil) -> Match {
        Match(
            id: mid(1),
            homePlayers: [pid(1)],
            awayPlayers: [pid(2)],
            homeGoals: 1,
            awayGoals: 0,
            created: created,
            stamps: stamps
        )
    }

    @Test("a goal on an existing match keeps only the written field; its ratings are dropped")
    func oneGoal() throws {
        var stamps = MatchStamps(all: Self.stamp(3, clientB))
        stamps.homeGoals = Self.stamp(5)
        let full = Self.changeset([
            .matchUpserted(Self.match(created: Self.stamp(3, clientB), stamps: stamps)),
            .ratingUpdated(Rating(playerID: pid(1), points: 3, played: 1, won: 1)),
            .ratingUpdated(Rating(playerID: pid(2), points: 0, played: 1, lost: 1)),
        ])
        let delta = try #require(ChangesetDelta(full))
        #expect(delta.changes == [.match(id: mid(1), MatchUpdate(homeGoals: 1))])
    }

    @Test("shapes the engine never commits have no lean form", arguments: 0..<6)
    func noLeanForm(caseIndex: Int) {
        let newPlayer = Player(
            id: pid(1),
            name: "Ada",
            nameKey: "ada",
            created: Self.stamp(5),
            nameStamp: Self.stamp(5)
        )
        var foreign = MatchStamps(all: Self.stamp(3))
        foreign.awayGoals = Self.stamp(5, clientB)  // written at this revision by another instance
        var future = MatchStamps(all: Self.stamp(3))
        future.homePlayers = Self.stamp(6)
        let cases: [Changeset] = [
            Self.changeset([.playerUpserted(newPlayer), .ratingUpdated(Rating(playerID: pid(1)))], by: nil),
            Self.changeset([.ratingUpdated(Rating(playerID: pid(1)))]),
            Self.changeset([.playerUpserted(newPlayer)]),  // a new player without its zero rating
            Self.changeset([.playerUpserted(newPlayer), .ratingUpdated(Rating(playerID: pid(1), points: 1))]),
            Self.changeset([.matchUpserted(Self.match(created: Self.stamp(3), stamps: foreign))]),
            Self.changeset([.matchUpserted(Self.match(created: Self.stamp(3), stamps: future))]),
        ]
        #expect(ChangesetDelta(cases[caseIndex]) == nil)
    }

    @Test("a partial patch of a match the replica does not have cannot be expanded")
    func unknownMatch() {
        let delta = ChangesetDelta(
            revision: 5,
            mutationID: MutationID(instance: clientA, seq: 1),
            author: "alice",
            time: Self.time,
            action: nil,
            changes: [.match(id: mid(9), MatchUpdate(homeGoals: 2))],
            digest: .genesis
        )
        #expect(throws: DeltaExpansionError.unknownMatch(mid(9))) { try delta.expand(in: LeagueState()) }
    }

    @Test("a created player expands with its zero rating; a rename keeps the creation stamp")
    func players() throws {
        var league = LeagueState()
        let created = try ChangesetDelta(
            revision: 1,
            mutationID: MutationID(instance: clientA, seq: 1),
            author: "alice",
            time: Self.time,
            action: nil,
            changes: [.player(id: pid(1), name: "Ada", nameKey: "ada")],
            digest: .genesis
        ).expand(in: league)
        let ada = Player(id: pid(1), name: "Ada", nameKey: "ada", created: Self.stamp(1), nameStamp: Self.stamp(1))
        #expect(created.changes == [.playerUpserted(ada), .ratingUpdated(Rating(playerID: pid(1)))])
        try league.apply(created)
        let renamed = try ChangesetDelta(
            revision: 2,
            mutationID: MutationID(instance: clientB, seq: 1),
            author: "bob",
            time: Self.time,
            action: nil,
            changes: [.player(id: pid(1), name: "Adah", nameKey: "adah")],
            digest: .genesis
        ).expand(in: league)
        let adah = Player(
            id: pid(1),
            name: "Adah",
            nameKey: "adah",
            created: Self.stamp(1),
            nameStamp: Self.stamp(2, clientB)
        )
        #expect(renamed.changes == [.playerUpserted(adah)])
    }

    @Test("a later change in one delta reads what an earlier one wrote: a new player's rating moves with a new match")
    func overlay() throws {
        var league = LeagueState()
        try league.apply(
            try ChangesetDelta(
                revision: 1,
                mutationID: MutationID(instance: clientA, seq: 1),
                author: "alice",
                time: Self.time,
                action: nil,
                changes: [.player(id: pid(2), name: "Béa", nameKey: "béa")],
                digest: .genesis
            ).expand(in: league)
        )
        let full = try ChangesetDelta(
            revision: 2,
            mutationID: MutationID(instance: clientA, seq: 2),
            author: "alice",
            time: Self.time,
            action: nil,
            changes: [
                .player(id: pid(1), name: "Ada", nameKey: "ada"),
                .match(
                    id: mid(1),
                    MatchUpdate(homePlayers: [pid(1)], awayPlayers: [pid(2)], homeGoals: 1, awayGoals: 0)
                ),
                .matchDeleted(mid(1)),
            ],
            digest: .genesis
        ).expand(in: league)
        let ratings = full.changes.compactMap { change -> Rating? in
            if case .ratingUpdated(let rating) = change { return rating }
            return nil
        }
        #expect(
            ratings == [
                Rating(playerID: pid(1)),
                Rating(playerID: pid(1), points: 3, played: 1, won: 1),
                Rating(playerID: pid(2), played: 1, lost: 1),
                Rating(playerID: pid(1)),
                Rating(playerID: pid(2)),
            ]
        )
    }
}
