import Foundation
import GoalClient
import GoalLocking
import GoalModel
import GoalTestSlots
import GoalTransport
import GoalWire
import Histogram
import Synchronization
import Testing

@testable import goal_load

@Suite("Lean subscriber messages", .slotted)
struct SubscriberMessageTests {
    private func subscriber() throws -> LoadSubscriber {
        let endpoint = try ServerEndpoint(parsing: "wss://127.0.0.1:1")
        let context = LoadContext(
            transport: try WebSocketTransport(endpoint: endpoint, security: .insecure),
            token: "t",
            sendTimes: SendTimeDirectory(prefix: "load-x-w", writers: 1),
            latency: LatencyRecorder(),
            addresses: SourceAddresses(endpoint: endpoint, perAddress: 400)
        )
        return LoadSubscriber(index: 0, sampled: false, context: context)
    }

    private func frame(revision: Revision, previous: Digest) -> ChangesetFrame {
        let changeset = Changeset(
            revision: revision,
            mutationID: MutationID(instance: ClientInstanceID("load-x-w0")!, seq: revision),
            author: "a",
            time: Timestamp(millisecondsSince1970: 1),
            action: nil,
            changes: [],
            digest: .genesis
        )
        return ChangesetFrame.encode(changeset, previousDigest: previous)
    }

    @Test func changesetsAdvanceAndGapsAskForAResume() throws {
        let subscriber = try subscriber()
        let first = frame(revision: 1, previous: .genesis)
        let second = frame(revision: 2, previous: first.digest)
        let fourth = frame(revision: 4, previous: second.digest)
        subscriber.context.sendTimes.times(writer: 0).record(seq: 2, at: 1_000)
        let welcome = ServerMessage.welcome(
            ServerMessage.Welcome(
                epoch: LeagueEpoch(rawValue: "e1"),
                head: 0,
                headDigest: .genesis,
                mode: .live,
                role: .viewer,
                serverTime: Timestamp(millisecondsSince1970: 1)
            )
        )
        // The shared resume machine reads changesets only after a hello and its welcome.
        subscriber.driver.updateMachine { machine in
            _ = machine.start()
            _ = machine.connectionOpened(now: Date(), token: "t", instance: ClientInstanceID("load-x-s0")!)
        }
        let results = ([welcome.encoded()] + [first, second, second, fourth].map(\.bytes))
            .map { bytes in subscriber.receive(bytes, now: 2_000_000) }
        #expect(results == [false, false, false, false, true])
        let snapshot = subscriber.snapshot()
        #expect(snapshot.revision == 2)
        #expect(snapshot.digest == second.digest)
        #expect(snapshot.deliveries == 2)
        #expect(snapshot.problemCount == 2)  // the duplicate and the gap
        #expect(subscriber.context.latency.merged().totalCount == 1)
    }

    @Test func sheddingIsCountedButTerminalErrorsAreProblems() throws {
        let subscriber = try subscriber()
        let shed = ServerMessage.error(code: .slowConsumer, message: "slow").encoded()
        let terminal = ServerMessage.error(code: .unauthorized, message: "no").encoded()
        _ = subscriber.receive(shed, now: 1)
        #expect(subscriber.snapshot().problemCount == 0)
        #expect(subscriber.snapshot().sheddings == 1)
        _ = subscriber.receive(terminal, now: 2)
        #expect(subscriber.snapshot().problemCount == 1)
    }
}
