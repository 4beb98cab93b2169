import Foundation
import GoalClient
import GoalClientSQLite
import GoalModel
import GoalReactive
import GoalStore
import GoalTestSlots
import GoalTestSupport
import Testing

/// A client's state kept in a `SQLiteClientStateStore` across "process restarts" (a new `GoalClient` on the same
/// file): the replica resumes without a snapshot, the instance and its seq carry on, and queued mutations are sent
/// again with their ids and applied once — checked in the daemon's durable log.
@MainActor
@Suite("Live: client state across process restarts", .slotted)
struct LivePersistenceTests {
    let league = SmallLeague()

    @Test("a restarted client resumes from its saved replica: same instance, backlog only, no snapshot")
    func resumesWithoutSnapshot() async throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        try await withMainActorDaemon(storage: try league.storage()) { daemon in
            let first = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            #expect(first.client.replica.value.hasSynced == false)
            try await first.connect()
            #expect(first.receivedSnapshot, "a client with nothing saved starts from a snapshot")
            let added = try await first.perform(.createPlayer(id: PlayerID(), name: "Zed"))
            #expect(try added.get().revision == league.head + 1)
            let instance = first.client.clientInstance
            await first.end()
            let reopened = try SQLiteClientStateStore.open(path: path, slots: 1, waitWhenBusy: true)
            let saved = try reopened.load()
            reopened.close()
            #expect(saved.replica == first.client.replica.value, "GoalWire's snapshot frames read back equal")
            #expect(saved.replica.revision == league.head + 1)

            // Someone else commits while "the process" is not running.
            let other = try PersistentClient(
                path: directory + "/other.sqlite",
                port: daemon.port,
                token: daemon.tokens.editor2
            )
            try await other.connect()
            _ = try await other.perform(.createPlayer(id: PlayerID(), name: "Yve"))
            await other.end()

            let second = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            #expect(second.client.clientInstance == instance, "the instance is restored, not minted again")
            #expect(second.client.replica.value.revision == league.head + 1, "the saved replica, before connecting")
            #expect(second.client.restoredSyncedAt != nil)
            try await second.connect()
            try await pollUntil("the backlog") { second.client.replica.value.revision == league.head + 2 }
            #expect(!second.receivedSnapshot, "resumed with since/epoch/digest: no snapshot")
            #expect(second.relay.inboundCount("snapshot_begin") == 0)
            #expect(second.client.replica.value.players.values.map(\.name).sorted().contains("Yve"))
            let next = try await second.perform(.createPlayer(id: PlayerID(), name: "Xia"))
            #expect(try next.get().id == MutationID(instance: instance, seq: 2), "the seq carries on")
            await second.end()
            #expect(try daemon.storage.recover().state.clientRecordCount == 3, "seeder, this client, the other")
        }
    }

    @Test("a mutation queued while offline is sent by the next process with its id and applied once")
    func queuedMutationSurvivesRestart() async throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        try await withMainActorDaemon(storage: try league.storage()) { daemon in
            let first = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            try await first.connect()
            first.relay.refuseNewConnections()
            first.relay.partition()
            try await pollUntil("the client to lose the server") { !first.client.status.value.isLive }
            let submitted = first.client.submit(
                .adjustGoals(id: league.older, side: .home, delta: 1),
                base: first.client.replica.value.revision
            )
            try await pollUntil("the mutation to be pending") { first.client.pendingMutations.value.count == 1 }
            await first.end()
            let stopped = try await PersistentClient.outcome(submitted)
            guard case .failure(let error) = stopped, case .kept(_, let wasSent) = error.kind else {
                Issue.record("expected the mutation to be kept, got \(stopped)")
                return
            }
            #expect(wasSent == false)
            let id = error.id

            let second = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            #expect(second.client.restoredMutations.map(\.mutation.id) == [id])
            #expect(second.client.pendingMutations.value.map(\.id) == [id], "shown as pending before connecting")
            try await second.connect()
            let answer = try await PersistentClient.outcome(try #require(second.client.restoredMutations.first).outcome)
            let ack = try answer.get()
            #expect(ack.id == id)
            #expect(second.relay.sendCount(seq: id.seq) == 1)
            #expect(try second.store.load().outbox.isEmpty, "answered: no longer queued")
            await second.end()

            // A process killed after sending but before it recorded the answer: the entry is still in the file.
            let killed = try SQLiteClientStateStore.open(path: path, slots: 1, waitWhenBusy: true)
            #expect(killed.slot == 0, "the slot the earlier processes used is free again")
            #expect(try killed.load().instance == id.instance)
            let mutation = Mutation(
                id: id,
                base: league.head,
                action: .adjustGoals(id: league.older, side: .home, delta: 1)
            )
            try killed.recordQueued(mutation)
            killed.close()
            let third = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            try await third.connect()
            let duplicate = try await PersistentClient.outcome(
                try #require(third.client.restoredMutations.first).outcome
            )
            #expect(try duplicate.get().revision == ack.revision, "the exactly-once table answers the original result")
            await third.end()

            let log = try StoredLog(daemon.storage)
            #expect(log.commits(of: id).count == 1, "applied exactly once")
            #expect(try daemon.storage.recover().state.match(league.older)?.homeGoals == 3)
        }
    }

    @Test("concurrent processes hold different slots; a free slot with queued mutations is taken first")
    func slots() throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        let a = try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
        let b = try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
        #expect(a.slot == 0 && b.slot == 1)
        let instanceA = try a.load().instance
        let instanceB = try b.load().instance
        #expect(instanceA != instanceB, "two live processes never share an instance (and its seq)")
        let queued = Mutation(
            id: MutationID(instance: instanceB, seq: 1),
            base: 0,
            action: .createPlayer(id: PlayerID(), name: "Q")
        )
        try b.recordQueued(queued)
        b.close()
        a.close()
        let c = try SQLiteClientStateStore.open(path: path, waitWhenBusy: false)
        #expect(c.slot == 1, "the slot with a queued mutation is taken first")
        let saved = try c.load()
        #expect(saved.instance == instanceB)
        #expect(saved.outbox.map(\.mutation) == [queued])
        #expect(saved.lastSeq == 1)
        let d = try SQLiteClientStateStore.open(path: path, slots: 2, waitWhenBusy: false)
        #expect(d.slot == 0)
        #expect(try d.load().instance == instanceA)
        #expect(throws: ClientStateStoreError.self) {
            try SQLiteClientStateStore.open(path: path, slots: 2, waitWhenBusy: false)
        }
        c.close()
        d.close()
    }

    @Test("a server of another epoch answers the saved replica with a snapshot, and the saved replica is replaced")
    func epochChangeReplacesSavedReplica() async throws {
        let directory = try temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }  // best effort: a temp directory
        let path = directory + "/state.sqlite"
        var oldEpoch: LeagueEpoch?
        try await withMainActorDaemon(storage: try league.storage()) { daemon in
            let first = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            try await first.connect()
            oldEpoch = first.client.replica.value.epoch
            await first.end()
        }
        // Another database (a restore, say): another epoch, another history.
        let other = SmallLeague()
        try await withMainActorDaemon(storage: try other.storage()) { daemon in
            let second = try PersistentClient(path: path, port: daemon.port, token: daemon.tokens.editor)
            #expect(second.client.replica.value.epoch == oldEpoch, "starts from the saved replica")
            try await second.connect()
            #expect(second.receivedSnapshot, "the server's epoch changed: a snapshot")
            let replica = second.client.replica.value
            #expect(replica.epoch != oldEpoch)
            #expect(replica.matches[other.older] != nil && replica.matches[league.older] == nil)
            await second.end()
            let reopened = try SQLiteClientStateStore.open(path: path, slots: 1, waitWhenBusy: true)
            #expect(try reopened.load().replica == replica, "the saved replica is the new epoch's")
            reopened.close()
        }
    }
}
