import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// `GoalClient` with several servers over a scripted transport: which server each connection goes to, what its
/// hello resumes from, when it waits, and which server and node it reports.
@Suite("GoalClient failover between servers", .slotted)
struct ClientFailoverTests {
    static let servers = ["wss://a.example:7443", "wss://b.example:7443"]

    @Test("a lost connection resumes at once on the next server with the same since, epoch and digest")
    func aLostConnectionResumesOnTheNextServer() throws {
        var script = LeagueScript()
        let first = script.player("Ada")
        let second = script.player("Bea")
        let h = ClientHarness { $0.servers = Self.servers }
        h.start()
        #expect(h.transport.last.server == 0)
        #expect(h.client.server.value == ServerLocation(index: 0, name: Self.servers[0]))
        h.deliver(.connected)
        var welcome = h.welcome(mode: .backlog, head: 2, digest: second.digest)
        welcome.node = "node-a"
        h.deliver(.welcome(welcome))
        h.deliver(.changeset(first))
        h.deliver(.changeset(second))
        h.deliver(.caughtUp(head: 2))
        #expect(h.statuses.last == .live(roundTrip: nil))
        #expect(
            h.client.server.value == ServerLocation(index: 0, name: Self.servers[0], node: "node-a", protocolVersion: 2)
        )

        h.deliver(.closed(code: CloseCode.goingAway.rawValue, reason: "shutting down"))
        // No wait: the second connection is already open, to server 1.
        #expect(h.transport.connections.count == 2)
        #expect(h.transport.last.server == 1)
        #expect(h.statuses.last == .connecting(attempt: 1))
        #expect(h.client.server.value == ServerLocation(index: 1, name: Self.servers[1]))
        h.deliver(.connected)
        let hello = try #require(h.transport.last.sent.first?.hello)
        #expect(hello.since == 2)
        #expect(hello.epoch == LeagueEpoch(rawValue: "test-epoch"))
        #expect(hello.digest == second.digest)
        #expect(hello.clientInstance == h.instance)

        var again = h.welcome(mode: .live, head: 2, digest: second.digest)
        again.node = "node-b"
        h.deliver(.welcome(again))
        #expect(h.statuses.last == .live(roundTrip: nil))
        #expect(
            h.client.server.value == ServerLocation(index: 1, name: Self.servers[1], node: "node-b", protocolVersion: 2)
        )
        #expect(h.client.replica.value.revision == 2)
        #expect(h.client.replica.value.digest == second.digest)
    }

    @Test("failed connects go round the servers; the backoff starts only when every server failed in a row")
    func backoffAfterAFullRound() {
        let h = ClientHarness { $0.servers = Self.servers }
        h.start()
        let refused = TransportFailure(.cannotConnect, "connection refused")
        h.deliver(.failed(refused))
        #expect(h.transport.connections.map(\.server) == [0, 1])
        #expect(h.statuses.last == .connecting(attempt: 1))
        h.deliver(.failed(refused))
        #expect(h.statuses.last == .reconnecting(attempt: 2, delay: 0.5))
        #expect(h.transport.connections.count == 2)
        h.scheduler.advance(by: 0.4)
        #expect(h.transport.connections.count == 2, "still waiting")
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.connections.map(\.server) == [0, 1, 0])
        h.deliver(.failed(refused))
        h.deliver(.failed(refused))
        #expect(h.statuses.last == .reconnecting(attempt: 4, delay: 1), "the second round waits the second delay")
        #expect(h.transport.connections.map(\.server) == [0, 1, 0, 1])
    }

    @Test("a mutation unanswered on the lost server is re-sent, same seq, on the next one")
    func theOutboxMovesWithTheClient() {
        let h = ClientHarness { $0.servers = Self.servers }
        h.start()
        h.connect(mode: .live, head: 0)
        let answer = ClientOutboxTests.Recorder()
        answer.start(h.client.submit(.createPlayer(id: PlayerID(), name: "Ada"), base: 0))
        h.scheduler.advance()
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.closed(code: nil, reason: "dropped"))
        #expect(h.transport.last.server == 1)
        h.connect(mode: .live, head: 0)
        #expect(h.transport.last.sentSeqs == [1])
        h.deliver(.ack(seq: 1, revision: 1, noop: false))
        #expect(answer.values.map(\.revision) == [1])
    }

    @Test("one server: the configuration lists it, and a loss waits before reconnecting to it")
    func oneServerIsUnchanged() {
        let h = ClientHarness()
        #expect(h.client.configuration.servers == ["test:7443"])
        #expect(h.client.configuration.serverName == "test:7443")
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: CloseCode.goingAway.rawValue, reason: ""))
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
        h.scheduler.advance(by: 0.5)
        #expect(h.transport.connections.map(\.server) == [0, 0])
    }
}
