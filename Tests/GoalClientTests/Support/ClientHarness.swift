import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSupport
import GoalWire

/// One client over a fake transport and a test scheduler, with every output recorded.
final class ClientHarness {
    let scheduler = TestScheduler()
    let transport = FakeTransport()
    let client: GoalClient
    let instance = ClientInstanceID("client-a")!
    private(set) var statuses: [ConnectionStatus] = []
    private(set) var updates: [ReplicaUpdate] = []
    private(set) var pending: [[PendingMutation]] = []

    init(
        jitter: [Double] = [],
        replica: ReplicaState = ReplicaState(),
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var configuration = ClientConfiguration(token: "secret-token", serverName: "test:7443")
        configure(&configuration)
        client = GoalClient(
            configuration: configuration,
            transport: transport,
            scheduler: scheduler,
            minter: InMemoryMutationIDMinter(instance: instance),
            jitter: FixedJitter(jitter),
            replica: replica
        )
        client.status.producer.startWithValues { [unowned self] in statuses.append($0) }
        client.updates.observeValues { [unowned self] in updates.append($0) }
        client.pendingMutations.signal.observeValues { [unowned self] in pending.append($0) }
    }

    /// Starts the client and opens the first connection (not yet `.connected`).
    func start() {
        client.start()
        scheduler.advance()
    }

    /// Delivers an event on the newest connection and lets the client handle it.
    func deliver(_ event: TransportEvent) {
        transport.last.deliver(event)
        scheduler.advance()
    }

    func deliver(_ message: ServerMessage) {
        transport.last.deliver(message)
        scheduler.advance()
    }

    /// Connects and answers `hello` with a `welcome`.
    func connect(
        mode: ServerMessage.SyncMode,
        head: Revision,
        digest: Digest = .genesis,
        epoch: LeagueEpoch = LeagueEpoch(rawValue: "test-epoch")
    ) {
        deliver(.connected)
        deliver(.welcome(welcome(mode: mode, head: head, digest: digest, epoch: epoch)))
    }

    func welcome(
        mode: ServerMessage.SyncMode,
        head: Revision,
        digest: Digest,
        epoch: LeagueEpoch = LeagueEpoch(rawValue: "test-epoch")
    )
        -> ServerMessage.Welcome
    {
        ServerMessage.Welcome(
            epoch: epoch,
            head: head,
            headDigest: digest,
            mode: mode,
            role: .editor,
            serverTime: Timestamp(millisecondsSince1970: 0)
        )
    }
}

/// A league with real history (valid digests) to feed the client.
struct LeagueScript {
    let league = InMemoryLeague()
    let server = ClientInstanceID("server-side")!
    private(set) var seq: UInt64 = 0
    private(set) var players: [PlayerID] = []

    /// Commits one mutation and returns its changeset.
    @discardableResult
    mutating func commit(_ action: MutationAction) -> Changeset {
        seq += 1
        let outcome = league.apply(
            Mutation(id: MutationID(instance: server, seq: seq), base: league.revision, action: action)
        )
        guard case .committed = outcome else { fatalError("script mutation failed: \(outcome)") }
        return league.history.last!
    }

    /// Creates a player.
    @discardableResult
    mutating func player(_ name: String) -> Changeset {
        let id = PlayerID()
        players.append(id)
        return commit(.createPlayer(id: id, name: name))
    }
}

extension ClientMessage {
    /// The hello inside, if it is one.
    var hello: Hello? {
        if case .hello(let hello) = self { return hello }
        return nil
    }
}
