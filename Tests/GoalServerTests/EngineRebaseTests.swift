import GoalLocking
import GoalModel
import GoalStore
import GoalTestSlots
import GoalWire
import Logging
import NIOCore
import NIOPosix
import Prometheus
import Testing

@testable import GoalServer

/// The engine on a shared store that another node always overtakes (no PostgreSQL): the writer decides the refused
/// batch again by itself, and the engine takes the outcome on its queue (issue 36 point 6). Answers go out once the
/// batch is durable, as one node deciding both writers' mutations in that order would give them.
@Suite("Engine on a shared store that moved: the writer decides again, the engine takes the outcome", .slotted)
struct EngineRebaseTests {
    /// A shared store on which another node commits `foreign` just before this node's first batch: the first
    /// `append(_:onto:rebase:)` writes it, hands it to `rebase`, and writes what comes back on top of it.
    final class OvertakenStorage: ForwardingLeagueStorage, SharedLeagueStorage, Sendable {
        let base: any LeagueStorage
        private let foreign: LockedValue<StorageBatch?>
        /// How often `rebase` was called.
        let rebases = LockedValue(0)

        init(foreign: StorageBatch) {
            self.base = InMemoryLeagueStorage()
            self.foreign = LockedValue(foreign)
        }

        func append(
            _ batch: StorageBatch,
            onto base: StoreHead,
            rebase: (ForeignChanges) throws(StorageError) -> StorageBatch
        ) throws(StorageError) -> StoreHead {
            var batch = batch
            var head = base
            let overtaking = foreign.withLock { foreign in
                defer { foreign = nil }
                return foreign
            }
            if let overtaking {
                try self.base.append(overtaking)
                head = StoreHead(revision: overtaking.lastRevision ?? head.revision, version: head.version + 1)
                let changes = ForeignChanges(
                    commits: overtaking.commits,
                    clientRecords: overtaking.clientRecords,
                    head: head
                )
                batch = try rebase(changes)
                rebases.withLock { $0 += 1 }
            }
            try self.base.append(batch)
            return StoreHead(revision: batch.lastRevision ?? head.revision, version: head.version + 1)
        }

        func changes(after base: StoreHead) throws(StorageError) -> ForeignChanges {
            ForeignChanges(commits: [], clientRecords: [], head: base)
        }

        func watchHead(_ wake: @escaping @Sendable (HeadNotice?) -> Void) {}

        func claimNode(_ nodeID: String, holder: String) async throws(StorageError) {}
    }

    private static let time = Timestamp(millisecondsSince1970: 1_767_225_600_000)

    private static func createPlayer(_ name: String, instance: String) -> Mutation {
        Mutation(
            id: MutationID(instance: ClientInstanceID(instance)!, seq: 1),
            base: 0,
            action: .createPlayer(id: PlayerID(), name: name)
        )
    }

    /// What another node committed on the empty league: `name` created by its client.
    private static func foreignBatch(creating name: String) -> StorageBatch {
        var decider = BatchDecider(state: LeagueState(), headDigest: .genesis, clientRecordPolicy: .default)
        var open = OpenBatch()
        let request = MutationRequest(
            mutation: createPlayer(name, instance: "node-b"),
            author: "b",
            role: .editor,
            replyTo: ReplyAddress(shard: 0, session: 0)
        )
        _ = decider.decide(TimedRequest(request: request, time: time), into: &open)
        return decider.close(&open).storage
    }

    /// Runs one mutation through an engine on `storage` and returns its answer and the state it was answered with.
    private static func decide(
        _ mutation: Mutation,
        on storage: OvertakenStorage
    ) async throws -> (answer: ServerMessage, state: LeagueState, engine: Engine) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = ServerMetrics(registry: PrometheusCollectorRegistry())
        let recovered = try storage.recover()
        let engine = Engine(
            recovered: recovered,
            capacity: 10,
            writer: BatchWriter(storage: storage),
            hub: Hub(
                eventLoops: [group.next()],
                head: recovered.head,
                headDigest: recovered.headDigest,
                coalescePause: .zero,
                metrics: metrics
            ),
            metrics: metrics,
            logger: Logger(label: "test.engine"),
            now: { Self.time },
            onFatalError: { _ in }
        )
        let answered = AsyncLatch<(ServerMessage, LeagueState)>()
        let request = MutationRequest(
            mutation: mutation,
            author: "a",
            role: .editor,
            replyTo: ReplyAddress(shard: 0, session: 1),
            direct: DirectReply { message, state in answered.open((message, state)) }
        )
        #expect(engine.submit(request))
        let (answer, state) = await answered.wait()
        await engine.stop()
        try await group.shutdownGracefully()
        return (answer, state, engine)
    }

    @Test("a mutation the other node's commit does not touch commits after it: revision 2, the store holds both")
    func commitsAfterForeignCommit() async throws {
        let storage = OvertakenStorage(foreign: Self.foreignBatch(creating: "bea"))
        let (answer, state, engine) = try await Self.decide(Self.createPlayer("dee", instance: "node-a"), on: storage)

        #expect(answer == .ack(seq: 1, revision: 2, noop: false))
        #expect(state.revision == 2 && state.players.count == 2)
        #expect(storage.rebases.withLock { $0 } == 1)
        #expect(try storage.logBounds().head == 2)
        let durable = engine.durableView
        #expect(durable.revision == 2)
        let frames = try storage.backlog(after: 0, upTo: 2, limit: 10)
        #expect(frames.map(\.revision) == [1, 2])
        #expect(try storage.logBounds().headDigest == durable.digest, "the digest chains through the other's commit")
    }

    @Test("a mutation the other node's commit now refuses is answered as one node deciding both would: name taken")
    func refusedAfterForeignCommit() async throws {
        let storage = OvertakenStorage(foreign: Self.foreignBatch(creating: "cy"))
        let (answer, state, engine) = try await Self.decide(Self.createPlayer("cy", instance: "node-a"), on: storage)

        guard case .rejected(seq: 1, let rejection) = answer else {
            Issue.record("expected a rejection, got \(answer)")
            return
        }
        #expect(rejection.code == .nameTaken)
        #expect(state.revision == 1 && state.players.count == 1)
        #expect(try storage.logBounds().head == 1)
        #expect(engine.durableView.revision == 1)
        #expect(engine.durableView.state.clientRecord(for: ClientInstanceID("node-a")!) != nil, "the refusal is kept")
    }
}
