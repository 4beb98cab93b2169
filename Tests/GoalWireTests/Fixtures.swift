import Foundation
import GoalModel
import GoalWire

/// Deterministic sample values shared by the wire tests.
enum Fixtures {
    static func uuid(_ n: Int, prefix: String = "0000a11c") -> UUID {
        let tail = String(n, radix: 16)
        return UUID(uuidString: "\(prefix)-0000-4000-8000-" + String(repeating: "0", count: 12 - tail.count) + tail)!
    }

    static func playerID(_ n: Int) -> PlayerID { PlayerID(uuid(n, prefix: "9a7e0000")) }
    static func matchID(_ n: Int) -> MatchID { MatchID(uuid(n, prefix: "3c0b0000")) }

    static let alice = ClientInstanceID("8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1")!
    static let bob = ClientInstanceID("bob-laptop")!

    static func stamp(_ revision: Revision, _ writer: ClientInstanceID = alice) -> FieldStamp {
        FieldStamp(revision: revision, writer: writer)
    }

    static func player(_ n: Int, name: String? = nil) -> Player {
        let name = name ?? "Player \(n)"
        return Player(
            id: playerID(n),
            name: name,
            nameKey: name.lowercased(),
            created: stamp(Revision(n)),
            nameStamp: stamp(Revision(n + 7), bob)
        )
    }

    static func match(_ n: Int, players: Int = 2) -> Match {
        Match(
            id: matchID(n),
            homePlayers: (0..<players).map { playerID(n * 10 + $0) },
            awayPlayers: (0..<players).map { playerID(n * 10 + 5 + $0) },
            homeGoals: n % 11,
            awayGoals: (n * 7) % 13,
            created: stamp(Revision(100 + n)),
            stamps: MatchStamps(
                homePlayers: stamp(Revision(100 + n)),
                awayPlayers: stamp(Revision(101 + n), bob),
                homeGoals: stamp(Revision(102 + n)),
                awayGoals: stamp(Revision(103 + n), bob)
            )
        )
    }

    static func rating(_ n: Int) -> Rating {
        Rating(playerID: playerID(n), points: 3 * n + 1, played: 2 * n + 1, won: n, drawn: 1, lost: n)
    }

    /// A commit of `count` changes of every kind (a realistic mix: matches and their players' ratings).
    static func changeset(revision: Revision = 42, changes count: Int = 6, previous: Digest = .genesis) -> Changeset {
        var changes: [Change] = []
        var n = 0
        while changes.count < count {
            switch n % 6 {
            case 0: changes.append(.matchUpserted(match(n)))
            case 1: changes.append(.ratingUpdated(rating(n)))
            case 2: changes.append(.playerUpserted(player(n, name: "Zoë \"Z\" Ünal\n\(n)")))
            case 3: changes.append(.ratingUpdated(rating(n)))
            case 4: changes.append(.playerDeleted(playerID(n)))
            default: changes.append(.matchDeleted(matchID(n)))
            }
            n += 1
        }
        let unsigned = Changeset(
            revision: revision,
            mutationID: MutationID(instance: alice, seq: 17),
            author: "alice",
            time: Timestamp(millisecondsSince1970: 1_767_225_600_123),
            action: .adjustGoals(id: matchID(0), side: .home, delta: 1),
            changes: changes,
            digest: .genesis
        )
        var signed = unsigned
        signed.digest = ChangesetFrame.encode(unsigned, previousDigest: previous).digest
        return signed
    }

    /// Every mutation action, with non-trivial content.
    static let actions: [MutationAction] = [
        .createPlayer(id: playerID(1), name: "Ada \u{1F3D3} \\ \"Lovelace\""),
        .renamePlayer(id: playerID(2), name: "grace"),
        .deletePlayer(id: playerID(3)),
        .createMatch(
            id: matchID(1),
            homePlayers: [playerID(1), playerID(2)],
            awayPlayers: [playerID(3)],
            homeGoals: 0,
            awayGoals: 999
        ),
        .updateMatch(id: matchID(2), MatchUpdate(awayPlayers: [playerID(4)], homeGoals: 5)),
        .updateMatch(
            id: matchID(3),
            MatchUpdate(homePlayers: [playerID(5)], awayPlayers: [playerID(6)], homeGoals: 1, awayGoals: 2)
        ),
        .updateMatch(id: matchID(4), MatchUpdate()),
        .adjustGoals(id: matchID(5), side: .away, delta: -3),
        .deleteMatch(id: matchID(6)),
    ]

    static let clientMessages: [ClientMessage] =
        [
            .hello(ClientMessage.Hello(token: "tok_0123456789abcdef", clientInstance: alice)),
            .hello(
                ClientMessage.Hello(
                    token: "t\"ok",
                    clientInstance: bob,
                    since: 41,
                    epoch: LeagueEpoch(rawValue: "e5f1c1d2"),
                    digest: Digest(bytes: Array(0..<32))!,
                    stream: .acks,
                    presence: .observe
                )
            ),
            .history(HistoryRequest(entity: .match(MatchID("c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f")!))),
            .history(
                HistoryRequest(entity: .player(PlayerID("6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b")!), before: 9, limit: 5)
            ),
            .presence(.editing(matchID(3))),
            .presence(.viewing(nil)),
            .presence(.online),
        ]
        + actions.enumerated().map { index, action in
            .mutate(ClientMessage.Mutate(seq: UInt64(index + 1), base: 40, action: action))
        }

    static var serverMessages: [ServerMessage] {
        [
            .welcome(
                ServerMessage.Welcome(
                    epoch: LeagueEpoch(rawValue: "e5f1c1d2"),
                    head: 42,
                    headDigest: changeset().digest,
                    mode: .backlog,
                    role: .editor,
                    serverTime: Timestamp(millisecondsSince1970: 1_767_225_600_000)
                )
            ),
            .changeset(changeset()),
            .changeset(
                Changeset(
                    revision: 1,
                    mutationID: nil,
                    author: "server",
                    time: Timestamp(millisecondsSince1970: 0),
                    action: nil,
                    changes: [],
                    digest: Digest(bytes: Array(repeating: 0xab, count: 32))!
                )
            ),
            .delta(
                ChangesetDelta(
                    revision: 43,
                    mutationID: MutationID(instance: bob, seq: 9),
                    author: "bob",
                    time: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                    action: .adjustGoals(id: matchID(3), side: .home, delta: 1),
                    changes: [.match(id: matchID(3), MatchUpdate(homeGoals: 2))],
                    digest: changeset().digest
                )
            ),
            .delta(
                ChangesetDelta(
                    revision: 44,
                    mutationID: MutationID(instance: alice, seq: 10),
                    author: "al\"ice",
                    time: Timestamp(millisecondsSince1970: 1_767_225_600_001),
                    action: nil,
                    changes: [
                        .player(id: playerID(1), name: "Zoë \\ \n", nameKey: "zoë \\ \n"),
                        .playerDeleted(playerID(2)),
                        .match(
                            id: matchID(4),
                            MatchUpdate(
                                homePlayers: [playerID(1)],
                                awayPlayers: [playerID(5), playerID(6)],
                                homeGoals: 0,
                                awayGoals: 999
                            )
                        ),
                        .matchDeleted(matchID(5)),
                    ],
                    digest: changeset().digest
                )
            ),
            .caughtUp(head: 42),
            .snapshotBegin(
                ServerMessage.SnapshotBegin(
                    revision: 42,
                    epoch: LeagueEpoch(rawValue: "e5f1c1d2"),
                    digest: changeset().digest,
                    players: 2,
                    matches: 1
                )
            ),
            .snapshotChunk(
                ServerMessage.SnapshotChunk(players: [player(1), player(2)], matches: [match(3)], ratings: [rating(1)])
            ),
            .snapshotChunk(ServerMessage.SnapshotChunk(ratings: [rating(2)])),
            .snapshotEnd(revision: 42, digest: changeset().digest),
            .ack(seq: 17, revision: 43, noop: false),
            .ack(seq: 18, revision: 43, noop: true),
            .rejected(
                seq: 19,
                MutationRejection(
                    code: .conflict,
                    message: "home_goals was changed by bob at revision 43",
                    fields: ["home_goals"],
                    current: .match(match(7))
                )
            ),
            .rejected(seq: 20, MutationRejection(code: .nameTaken, message: "name taken", current: .player(player(9)))),
            .rejected(seq: 21, MutationRejection(code: .notFound, message: "no such match")),
            .rateLimited(seq: 22, retryAfterMilliseconds: 250),
            .rateLimited(seq: nil, retryAfterMilliseconds: 1000),
            .overloaded(seq: 12, retryAfterMilliseconds: 500),
            .overloaded(seq: nil, retryAfterMilliseconds: 500),
            .error(code: .badMessage, message: "mutate.home_goals: expected an integer, found a string"),
            .history(
                HistoryAnswer(
                    entity: .match(match(7).id),
                    result: .page(
                        HistoryPageMessage(
                            entries: [
                                HistoryEntry(
                                    revision: 12,
                                    time: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                                    author: "bo\"b",
                                    clientInstance: bob,
                                    action: actions[0],
                                    change: .updated,
                                    fields: [
                                        FieldChange(field: .homeGoals, before: .goals(2), after: .goals(3)),
                                        FieldChange(field: .awayPlayers, before: nil, after: .players([player(1).id])),
                                    ]
                                ),
                                HistoryEntry(
                                    revision: 3,
                                    time: Timestamp(millisecondsSince1970: 0),
                                    author: "server",
                                    clientInstance: nil,
                                    action: nil,
                                    change: .deleted,
                                    fields: [FieldChange(field: .name, before: .name("Ada"), after: nil)]
                                ),
                            ],
                            nextBefore: 3,
                            retainedFrom: 2,
                            pruned: false
                        )
                    )
                )
            ),
            .history(
                HistoryAnswer(
                    entity: .player(player(2).id),
                    result: .page(HistoryPageMessage(entries: [], nextBefore: nil, retainedFrom: nil, pruned: true))
                )
            ),
            .history(HistoryAnswer(entity: .player(player(2).id), result: .refused(.busy, message: "wait"))),
            .presenceState([presenceMember]),
            .presence(PresenceEvent(.update, presenceMember)),
        ]
    }

    static let presenceMember = PresenceMember(
        id: "goald-a/12",
        name: "al\"ice",
        clientInstance: alice,
        node: "goald-a",
        activity: .viewing(matchID(3)),
        since: Timestamp(millisecondsSince1970: 1_767_225_600_000)
    )
}

/// SplitMix64: a seeded generator so random-input tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
