import Foundation
import GoalModel
import GoalWire

/// The story docs/PROTOCOL.md tells, message by message: two players, one match, a goal, a conflict, a snapshot.
///
/// `ProtocolDocTests` checks that every example in the document decodes and re-encodes to the same bytes and
/// that its changesets chain from genesis; set `GOAL_PROTOCOL_EXAMPLES_OUT=<file>` when running the tests to
/// write fresh examples (name, then the frame) after changing this story.
enum ProtocolExamples {
    static let laptop = ClientInstanceID("3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f")!
    static let phone = ClientInstanceID("b7e1d2c3-4a5b-4c6d-8e7f-901a2b3c4d5e")!
    static let ada = PlayerID("6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b")!
    static let bea = PlayerID("0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b")!
    static let game = MatchID("c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f")!
    static let epoch = LeagueEpoch(rawValue: "5b0d2f4e9c1a4e7f")
    static let base = Timestamp(millisecondsSince1970: 1_767_225_600_000)

    static func stamp(_ revision: Revision, _ writer: ClientInstanceID = laptop) -> FieldStamp {
        FieldStamp(revision: revision, writer: writer)
    }

    static let adaPlayer = Player(id: ada, name: "Ada", nameKey: "ada", created: stamp(1), nameStamp: stamp(1))
    static let beaPlayer = Player(id: bea, name: "Béa", nameKey: "béa", created: stamp(2), nameStamp: stamp(2))
    static let match3 = Match(
        id: game,
        homePlayers: [ada],
        awayPlayers: [bea],
        homeGoals: 0,
        awayGoals: 0,
        created: stamp(3)
    )
    static var match4: Match {
        var match = match3
        match.homeGoals = 1
        match.stamps.homeGoals = stamp(4, phone)
        return match
    }

    /// Revisions 1…4, chained from genesis.
    static var changesets: [Changeset] {
        let commits: [(MutationID, MutationAction, [Change], ClientInstanceID)] = [
            (
                MutationID(instance: laptop, seq: 1), .createPlayer(id: ada, name: "Ada"), [.playerUpserted(adaPlayer)],
                laptop
            ),
            (
                MutationID(instance: laptop, seq: 2), .createPlayer(id: bea, name: "Béa"), [.playerUpserted(beaPlayer)],
                laptop
            ),
            (
                MutationID(instance: laptop, seq: 3),
                .createMatch(id: game, homePlayers: [ada], awayPlayers: [bea], homeGoals: 0, awayGoals: 0),
                [
                    .matchUpserted(match3),
                    .ratingUpdated(Rating(playerID: ada, points: 1, played: 1, won: 0, drawn: 1, lost: 0)),
                    .ratingUpdated(Rating(playerID: bea, points: 1, played: 1, won: 0, drawn: 1, lost: 0)),
                ],
                laptop
            ),
            (
                MutationID(instance: phone, seq: 8),
                .adjustGoals(id: game, side: .home, delta: 1),
                [
                    .matchUpserted(match4),
                    .ratingUpdated(Rating(playerID: ada, points: 3, played: 1, won: 1, drawn: 0, lost: 0)),
                    .ratingUpdated(Rating(playerID: bea, points: 0, played: 1, won: 0, drawn: 0, lost: 1)),
                ],
                phone
            ),
        ]
        var previous = Digest.genesis
        var result: [Changeset] = []
        for (index, (id, action, changes, _)) in commits.enumerated() {
            var changeset = Changeset(
                revision: Revision(index + 1),
                mutationID: id,
                author: id.instance == phone ? "bob" : "alice",
                time: Timestamp(millisecondsSince1970: base.millisecondsSince1970 + Int64(index) * 61_000),
                action: action,
                changes: changes,
                digest: .genesis
            )
            changeset.digest = ChangesetFrame.encode(changeset, previousDigest: previous).digest
            previous = changeset.digest
            result.append(changeset)
        }
        return result
    }

    /// (name, bytes) for every example, in document order.
    static var all: [(String, [UInt8])] {
        let chain = changesets
        let head = chain[3]
        var examples: [(String, [UInt8])] = [
            (
                "hello (resume)",
                ClientMessage.hello(
                    ClientMessage.Hello(
                        token: "gt_Qm9vdGZvb3NiYWxsLWxlYWd1ZS10b2tlbi0yNTZi",
                        clientInstance: laptop,
                        since: 2,
                        epoch: epoch,
                        digest: chain[1].digest
                    )
                ).encoded()
            ),
            (
                "hello (fresh, acks only)",
                ClientMessage.hello(
                    ClientMessage.Hello(token: "gt_c2NyaXB0LXdyaXRlci10b2tlbg", clientInstance: phone, stream: .acks)
                ).encoded()
            ),
            (
                "welcome",
                ServerMessage.welcome(
                    ServerMessage.Welcome(
                        epoch: epoch,
                        head: 4,
                        headDigest: head.digest,
                        mode: .backlog,
                        role: .editor,
                        serverTime: Timestamp(millisecondsSince1970: base.millisecondsSince1970 + 300_000),
                        node: "goald-a"
                    )
                ).encoded()
            ),
        ]
        for changeset in chain {
            examples.append(("changeset \(changeset.revision)", ServerMessage.changeset(changeset).encoded()))
        }
        if let delta = ChangesetDelta(head) {
            examples.append(("delta 4", ServerMessage.delta(delta).encoded()))
        }
        examples += [
            ("caught_up", ServerMessage.caughtUp(head: 4).encoded()),
            (
                "mutate create_player",
                ClientMessage.mutate(ClientMessage.Mutate(seq: 1, base: 0, action: .createPlayer(id: ada, name: "Ada")))
                    .encoded()
            ),
            (
                "mutate rename_player",
                ClientMessage.mutate(
                    ClientMessage.Mutate(seq: 4, base: 2, action: .renamePlayer(id: bea, name: "Béatrice"))
                ).encoded()
            ),
            (
                "mutate delete_player",
                ClientMessage.mutate(ClientMessage.Mutate(seq: 5, base: 4, action: .deletePlayer(id: bea))).encoded()
            ),
            (
                "mutate create_match",
                ClientMessage.mutate(
                    ClientMessage.Mutate(
                        seq: 3,
                        base: 2,
                        action: .createMatch(
                            id: game,
                            homePlayers: [ada],
                            awayPlayers: [bea],
                            homeGoals: 0,
                            awayGoals: 0
                        )
                    )
                ).encoded()
            ),
            (
                "mutate update_match",
                ClientMessage.mutate(
                    ClientMessage.Mutate(
                        seq: 6,
                        base: 3,
                        action: .updateMatch(id: game, MatchUpdate(homeGoals: 2, awayGoals: 1))
                    )
                ).encoded()
            ),
            (
                "mutate adjust_goals",
                ClientMessage.mutate(
                    ClientMessage.Mutate(seq: 8, base: 3, action: .adjustGoals(id: game, side: .home, delta: 1))
                ).encoded()
            ),
            (
                "mutate delete_match",
                ClientMessage.mutate(ClientMessage.Mutate(seq: 7, base: 4, action: .deleteMatch(id: game))).encoded()
            ),
            ("ack", ServerMessage.ack(seq: 8, revision: 4, noop: false).encoded()),
            ("ack noop", ServerMessage.ack(seq: 9, revision: 4, noop: true).encoded()),
            (
                "rejected conflict",
                ServerMessage.rejected(
                    seq: 6,
                    MutationRejection(
                        code: .conflict,
                        message: "home_goals was changed by another client after revision 3",
                        fields: ["home_goals"],
                        current: .match(match4)
                    )
                ).encoded()
            ),
            (
                "rejected player_in_use",
                ServerMessage.rejected(
                    seq: 5,
                    MutationRejection(code: .playerInUse, message: "Béa plays in 1 match", fields: [])
                ).encoded()
            ),
            (
                "rejected invalid",
                ServerMessage.rejected(
                    seq: 10,
                    MutationRejection(
                        code: .invalid,
                        message: "mutate.home_goals: expected an integer; found a fraction",
                        fields: ["home_goals"]
                    )
                ).encoded()
            ),
            (
                "snapshot_begin",
                ServerMessage.snapshotBegin(
                    ServerMessage.SnapshotBegin(revision: 4, epoch: epoch, digest: head.digest, players: 2, matches: 1)
                ).encoded()
            ),
        ]
        examples += SnapshotChunker.chunkFrames(
            players: [adaPlayer, beaPlayer],
            matches: [match4],
            ratings: [
                Rating(playerID: ada, points: 3, played: 1, won: 1, drawn: 0, lost: 0),
                Rating(playerID: bea, points: 0, played: 1, won: 0, drawn: 0, lost: 1),
            ]
        ).map { ("snapshot_chunk", $0) }
        examples += [
            ("snapshot_end", ServerMessage.snapshotEnd(revision: 4, digest: head.digest).encoded()),
            ("rate_limited", ServerMessage.rateLimited(seq: 12, retryAfterMilliseconds: 250).encoded()),
            ("overloaded", ServerMessage.overloaded(seq: 13, retryAfterMilliseconds: 500).encoded()),
            (
                "error",
                ServerMessage.error(
                    code: .badMessage,
                    message: "mutate.seq: expected a non-negative integer, found a string"
                ).encoded()
            ),
        ]
        examples += historyExamples(chain)
        return examples
    }

    /// `history`: a request, a page of one entry (revision 4, with its predecessor 3 as "before"), a refusal.
    static func historyExamples(_ chain: [Changeset]) -> [(String, [UInt8])] {
        let entries = HistoryDiff.entries(of: .match(game), newestFirst: [chain[3], chain[2]], limit: 1)
        return [
            ("history request", ClientMessage.history(HistoryRequest(entity: .match(game), limit: 1)).encoded()),
            (
                "history page",
                ServerMessage.history(
                    HistoryAnswer(
                        entity: .match(game),
                        result: .page(
                            HistoryPageMessage(entries: entries, nextBefore: 4, retainedFrom: 1, pruned: false)
                        )
                    )
                ).encoded()
            ),
            (
                "history refused",
                ServerMessage.history(
                    HistoryAnswer(
                        entity: .player(bea),
                        result: .refused(
                            .unknownEntity,
                            message: "no player \(bea) exists or is in the log from revision 1"
                        )
                    )
                ).encoded()
            ),
        ]
    }
}
