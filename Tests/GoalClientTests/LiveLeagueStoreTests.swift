import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

@Suite("LiveLeagueStore: a GoalClient's outputs re-delivered on another scheduler", .slotted)
struct LiveLeagueStoreTests {
    @Test func outputsArriveOnlyOnTheDeliverySchedulerInOrder() {
        var script = LeagueScript()
        let first = script.player("Ada")
        let h = ClientHarness()
        let delivery = TestScheduler()
        let store = LiveLeagueStore(client: h.client, deliveryScheduler: delivery)
        var seen: [String] = []
        store.replica.signal.observeValues { seen.append("replica r\($0.revision)") }
        store.updates.observeValues { seen.append("update r\($0.revision)") }
        store.status.signal.observeValues { seen.append("status \($0)") }
        #expect(store.serverName == "test:7443")
        #expect(store.clientInstance == h.instance)

        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.changeset(first))
        #expect(h.client.replica.value.revision == 1)
        #expect(store.replica.value.revision == 0, "nothing is delivered before the delivery scheduler runs")
        delivery.advance()
        #expect(store.replica.value.revision == 1)
        #expect(store.status.value == .live(roundTrip: nil))
        #expect(
            seen.filter { $0.hasPrefix("replica") || $0.hasPrefix("update") } == [
                "replica r0", "replica r0", "replica r1", "update r1",
            ]
        )
        #expect(seen.filter { $0.hasPrefix("status") } == ["status idle", "status connecting", "status live"])
    }

    @Test func mutationAnswersAndRefreshesArriveOnTheDeliveryScheduler() {
        let h = ClientHarness()
        let delivery = TestScheduler()
        let store = LiveLeagueStore(client: h.client, deliveryScheduler: delivery)
        h.start()
        h.connect(mode: .live, head: 0)
        var acks: [MutationAck] = []
        store.submit(.createPlayer(id: PlayerID(), name: "Ada"), base: 0).startWithResult {
            if case .success(let ack) = $0 { acks.append(ack) }
        }
        h.scheduler.advance()
        #expect(store.pendingMutations.value.isEmpty, "pending is mirrored on the delivery scheduler")
        delivery.advance()
        #expect(store.pendingMutations.value.count == 1)
        h.deliver(.ack(seq: 1, revision: 1, noop: false))
        #expect(acks == [])
        delivery.advance()
        #expect(acks == [MutationAck(id: MutationID(instance: h.instance, seq: 1), revision: 1, noop: false)])
        #expect(store.pendingMutations.value.isEmpty)
        var revisions: [Revision] = []
        store.refresh().startWithResult { if case .success(let revision) = $0 { revisions.append(revision) } }
        #expect(revisions == [])
        delivery.advance()
        #expect(revisions == [0])
    }
}
