import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// GoalClient over an `InMemoryClientStateStore` on virtual time: what is written to the store and when (before
/// any send), what `stop()` keeps, and what a second client on the same store (a process restart) restores.
@Suite("GoalClient with a ClientStateStore: durable before sent, kept on stop, restored after a restart", .slotted)
struct ClientStateStoreTests {
    let instance = ClientInstanceID("stored-instance")!
    let player = PlayerID()

    func makeClient(
        _ store: InMemoryClientStateStore,
        _ scheduler: TestScheduler,
        _ transport: FakeTransport
    ) throws -> GoalClient {
        try GoalClient(
            configuration: ClientConfiguration(token: "secret-token", serverName: "test:7443"),
            transport: transport,
            scheduler: scheduler,
            stateStore: store,
            jitter: FixedJitter([0])
        )
    }

    func welcome(epoch: LeagueEpoch = LeagueEpoch(rawValue: "e1")) -> ServerMessage {
        .welcome(
            ServerMessage.Welcome(
                epoch: epoch,
                head: 0,
                headDigest: .genesis,
                mode: .live,
                role: .editor,
                serverTime: Timestamp(millisecondsSince1970: 0)
            )
        )
    }

    @Test("submit writes the mutation and its seq to the store before the client can send it")
    func recordedBeforeSent() throws {
        let store = InMemoryClientStateStore(SavedClientState(instance: instance, lastSeq: 4))
        let scheduler = TestScheduler()
        let client = try makeClient(store, scheduler, FakeTransport())
        _ = client.submit(.createPlayer(id: player, name: "Ada"), base: 0)
        // The scheduler has not run: nothing is queued in the client yet, but the store has it.
        let id = MutationID(instance: instance, seq: 5)
        #expect(store.state.outbox.map(\.mutation.id) == [id], "the seq carries on after the saved last seq")
        #expect(store.state.lastSeq == 5)
        #expect(store.state.outbox.first?.firstSent == nil)
    }

    @Test("the first send is recorded; stop keeps the mutation (.kept); a restart of the client re-sends it")
    func keptOnStopAndResent() throws {
        let store = InMemoryClientStateStore(SavedClientState(instance: instance))
        let scheduler = TestScheduler()
        let transport = FakeTransport()
        let client = try makeClient(store, scheduler, transport)
        var errors: [MutationError] = []
        _ = client.submit(.createPlayer(id: player, name: "Ada"), base: 0).startWithFailed { errors.append($0) }
        client.start()
        scheduler.advance()
        transport.last.deliver(.connected)
        scheduler.advance()
        transport.last.deliver(welcome())
        scheduler.advance()
        #expect(transport.last.sentSeqs == [1])
        let firstSent = try #require(store.state.outbox.first?.firstSent, "noted at the first send")
        #expect(firstSent <= scheduler.currentDate)
        #expect(store.state.replica.epoch == LeagueEpoch(rawValue: "e1"), "a live welcome saves the replica")

        client.stop()
        scheduler.advance()
        #expect(errors.map(\.kind) == [.kept(.requested, wasSent: true)])
        #expect(store.state.outbox.count == 1, "kept in the store")
        #expect(client.pendingMutations.value.count == 1, "and in the outbox")

        client.start()
        scheduler.advance()
        transport.last.deliver(.connected)
        scheduler.advance()
        transport.last.deliver(welcome())
        scheduler.advance()
        #expect(transport.last.sentSeqs == [1], "the same id again")
        transport.last.deliver(.ack(seq: 1, revision: 1, noop: false))
        scheduler.advance()
        #expect(store.state.outbox.isEmpty, "answered: forgotten")
        #expect(client.pendingMutations.value.isEmpty)
    }

    @Test("a second client on the store restores instance, seq, outbox and replica; its hello resumes from it")
    func restoredByTheNextClient() throws {
        let store = InMemoryClientStateStore(SavedClientState(instance: instance))
        let scheduler = TestScheduler()
        let firstTransport = FakeTransport()
        let first = try makeClient(store, scheduler, firstTransport)
        first.start()
        scheduler.advance()
        firstTransport.last.deliver(.connected)
        scheduler.advance()
        firstTransport.last.deliver(welcome())
        scheduler.advance()
        first.stop()
        scheduler.advance()
        _ = first.submit(.createPlayer(id: player, name: "Ada"), base: 0)
        scheduler.advance()

        let transport = FakeTransport()
        let second = try makeClient(store, scheduler, transport)
        #expect(second.clientInstance == instance)
        #expect(second.restoredMutations.map(\.mutation.id) == [MutationID(instance: instance, seq: 1)])
        #expect(second.pendingMutations.value.map(\.isSent) == [false])
        #expect(second.replica.value.epoch == LeagueEpoch(rawValue: "e1"))
        var answers: [MutationAck] = []
        _ = second.restoredMutations.first?.outcome.startWithResult {
            if case .success(let ack) = $0 { answers.append(ack) }
        }
        second.start()
        scheduler.advance()
        transport.last.deliver(.connected)
        scheduler.advance()
        let hello = try #require(transport.last.sent.first?.hello)
        #expect(
            hello.since == 0 && hello.epoch == LeagueEpoch(rawValue: "e1") && hello.digest == .genesis,
            "resumes: no snapshot asked"
        )
        transport.last.deliver(welcome())
        scheduler.advance()
        #expect(transport.last.sentSeqs == [1])
        transport.last.deliver(.ack(seq: 1, revision: 1, noop: false))
        scheduler.advance()
        #expect(answers.map(\.revision) == [1])
        _ = second.submit(.deletePlayer(id: player), base: 1)
        #expect(store.state.lastSeq == 2, "the next id is seq 2 of the same instance")
    }
}
