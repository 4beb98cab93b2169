import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalTestSupport
import GoalWire
import Testing

@Suite("GoalClient sync: hello, backlog, caught_up, snapshots, duplicates, gaps", .slotted)
struct ClientSyncTests {
    @Test func helloOfAnEmptyReplicaCarriesTokenAndInstanceButNoSince() {
        let h = ClientHarness()
        h.start()
        #expect(h.statuses == [.idle, .connecting(attempt: 0)])
        #expect(h.transport.connections.count == 1)
        h.deliver(.connected)
        #expect(
            h.transport.last.sent == [
                .hello(
                    ClientMessage.Hello(token: "secret-token", clientInstance: h.instance, stream: .all, presence: .all)
                )
            ]
        )
    }

    @Test func backlogThenCaughtUpAppliesEveryChangesetAndGoesLive() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let second = script.player("Bo")
        let h = ClientHarness()
        h.start()
        h.connect(mode: .backlog, head: 2, digest: second.digest)
        #expect(h.statuses == [.idle, .connecting(attempt: 0), .syncing])
        h.deliver(.changeset(first))
        h.deliver(.changeset(second))
        #expect(h.statuses.last == .syncing)
        h.deliver(.caughtUp(head: 2))
        #expect(h.statuses == [.idle, .connecting(attempt: 0), .syncing, .live(roundTrip: nil)])
        #expect(h.updates == [.changeset(first), .changeset(second)])
        let replica = h.client.replica.value
        #expect(replica.revision == 2)
        #expect(replica.epoch == LeagueEpoch(rawValue: "test-epoch"))
        #expect(replica.digest == second.digest)
        #expect(replica.playersByName().map(\.name) == ["Ada", "Bo"])
        #expect(replica == ReplicaState(script.league.snapshot))
        #expect(h.client.role.value == .editor)
    }

    @Test func aBacklogIsPublishedInBatchesAndAtCaughtUp() {
        var script = LeagueScript()
        let changesets = ["Ada", "Bo", "Cy", "Di", "Ed"].map { script.player($0) }
        let h = ClientHarness { $0.backlogBatch = 2 }
        var revisions: [Revision] = []
        h.client.replica.signal.observeValues { revisions.append($0.revision) }
        h.start()
        h.connect(mode: .backlog, head: 5, digest: changesets[4].digest)
        var published: [[ReplicaUpdate]] = []
        for changeset in changesets {
            h.deliver(.changeset(changeset))
            published.append(h.updates)
        }
        #expect(published.map(\.count) == [0, 2, 2, 4, 4])
        #expect(revisions == [0, 2, 4], "the first epoch, then one publication per batch")
        h.deliver(.caughtUp(head: 5))
        #expect(h.updates == changesets.map { .changeset($0) })
        #expect(revisions == [0, 2, 4, 5])
        #expect(h.statuses.last == .live(roundTrip: nil))
        let live = script.player("Flo")
        h.deliver(.changeset(live))
        #expect(revisions == [0, 2, 4, 5, 6], "live changesets are published one by one")
    }

    @Test func aBacklogCutShortIsStillPublished() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let h = ClientHarness()
        h.start()
        h.connect(mode: .backlog, head: 3)
        h.deliver(.changeset(first))
        #expect(h.updates == [])
        h.deliver(.closed(code: 4008, reason: "slow consumer"))
        #expect(h.updates == [.changeset(first)])
        #expect(h.client.replica.value.revision == 1)
    }

    @Test func duplicateChangesetsAreDroppedWithoutAnUpdate() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let second = script.player("Bo")
        let h = ClientHarness()
        h.start()
        h.connect(mode: .backlog, head: 2, digest: second.digest)
        h.deliver(.changeset(first))
        h.deliver(.changeset(first))
        h.deliver(.changeset(second))
        h.deliver(.caughtUp(head: 2))
        h.deliver(.changeset(second))
        h.deliver(.changeset(first))
        #expect(h.updates == [.changeset(first), .changeset(second)])
        #expect(h.client.replica.value.revision == 2)
        #expect(h.transport.connections.count == 1)
        #expect(h.transport.last.closeCodes == [])
    }

    @Test func aGapClosesWithResyncAndResumesFromTheLastRevisionWithItsDigest() {
        var script = LeagueScript()
        let first = script.player("Ada")
        script.player("Bo")
        let third = script.player("Cy")
        let h = ClientHarness(jitter: [0])
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.changeset(first))
        h.deliver(.changeset(third))
        #expect(h.transport.last.closeCodes == [CloseCode.resync.rawValue])
        #expect(h.client.replica.value.revision == 1)
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
        h.scheduler.advance(by: 0.49)
        #expect(h.transport.connections.count == 1)
        h.scheduler.advance(by: 0.01)
        #expect(h.transport.connections.count == 2)
        #expect(h.statuses.last == .connecting(attempt: 1))
        h.deliver(.connected)
        #expect(
            h.transport.last.sent.first?.hello
                == ClientMessage.Hello(
                    token: "secret-token",
                    clientInstance: h.instance,
                    since: 1,
                    epoch: LeagueEpoch(rawValue: "test-epoch"),
                    digest: first.digest,
                    presence: .all
                )
        )
    }

    @Test func caughtUpBeyondTheReplicaIsAGap() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let h = ClientHarness()
        h.start()
        h.connect(mode: .backlog, head: 2)
        h.deliver(.changeset(first))
        h.deliver(.caughtUp(head: 2))
        #expect(h.transport.connections[0].closeCodes == [CloseCode.resync.rawValue])
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
    }

    @Test func aChangesetWhoseDigestBreaksTheChainResyncs() {
        var script = LeagueScript()
        var forged = script.player("Ada")
        forged.digest = Digest(bytes: [UInt8](repeating: 7, count: 32))!
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.changeset(forged))
        #expect(h.client.replica.value.revision == 0)
        #expect(h.updates == [])
        #expect(h.transport.last.closeCodes == [CloseCode.resync.rawValue])
    }

    @Test func aChunkedSnapshotReplacesTheReplicaThenLiveChangesetsFollow() throws {
        var script = LeagueScript()
        for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"] { script.player(name) }
        script.commit(
            .createMatch(
                id: MatchID(),
                homePlayers: [script.players[0], script.players[1]],
                awayPlayers: [script.players[2]],
                homeGoals: 2,
                awayGoals: 1
            )
        )
        let snapshot = script.league.snapshot
        let frames = SnapshotChunker.frames(of: snapshot, maxChunkBytes: 400)
        #expect(frames.count > 4, "the snapshot must really be chunked")
        let next = script.player("Gus")

        // A stale replica of another epoch: the snapshot must replace all of it.
        var stale = ReplicaState()
        stale.adopt(epoch: LeagueEpoch(rawValue: "old-epoch"))
        let h = ClientHarness(replica: stale)
        h.start()
        h.deliver(.connected)
        #expect(h.transport.last.sent.first?.hello?.since == 0)
        #expect(h.transport.last.sent.first?.hello?.epoch == LeagueEpoch(rawValue: "old-epoch"))
        h.deliver(.welcome(h.welcome(mode: .snapshot, head: snapshot.revision, digest: snapshot.digest)))
        for frame in frames.dropLast() {
            h.deliver(.message(frame))
            #expect(h.client.replica.value.revision == 0)
        }
        h.deliver(.message(frames.last!))
        #expect(h.client.replica.value == ReplicaState(snapshot))
        #expect(h.updates == [.snapshot(revision: snapshot.revision)])
        #expect(h.statuses.suffix(2) == [.syncing, .live(roundTrip: nil)])
        h.deliver(.changeset(next))
        #expect(h.client.replica.value == ReplicaState(script.league.snapshot))
        #expect(h.updates == [.snapshot(revision: snapshot.revision), .changeset(next)])
    }

    @Test func aSnapshotWithMissingEntitiesResyncs() {
        var script = LeagueScript()
        script.player("Ada")
        script.player("Bo")
        var snapshot = script.league.snapshot
        let begin = snapshot.begin
        snapshot.players.removeLast()
        let h = ClientHarness()
        h.start()
        h.connect(mode: .snapshot, head: 2)
        h.deliver(.snapshotBegin(begin))
        h.deliver(.snapshotChunk(.init(players: snapshot.players, ratings: snapshot.ratings)))
        h.deliver(.snapshotEnd(revision: snapshot.revision, digest: snapshot.digest))
        #expect(h.client.replica.value.revision == 0)
        #expect(h.transport.connections[0].closeCodes == [CloseCode.resync.rawValue])
    }

    @Test func anUndecodableMessageDropsTheConnection() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.message(Array("{\"type\":\"nonsense\"}".utf8)))
        #expect(h.transport.connections[0].closeCodes == [CloseCode.protocolViolation.rawValue])
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
    }
}

@Suite("GoalClient drives the shared ResumeSession", .slotted)
struct ClientResumeSessionTests {
    @Test func aBacklogOfAnotherEpochIsNeverSplicedOntoTheReplica() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.changeset(first))
        #expect(h.client.replica.value.revision == 1)
        h.deliver(.closed(code: CloseCode.goingAway.rawValue, reason: ""))
        h.scheduler.advance(by: 0.5)
        // The server of another database offers a backlog from r1 (it should have sent a snapshot).
        h.connect(mode: .backlog, head: 2, epoch: LeagueEpoch(rawValue: "other-epoch"))
        #expect(h.transport.last.closeCodes == [CloseCode.resync.rawValue])
        #expect(h.client.replica.value.revision == 1)
        #expect(h.client.replica.value.epoch == LeagueEpoch(rawValue: "test-epoch"))
    }
}
