import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// Issue 16, point 4: a UI's "reconnect now" key.
@Suite("GoalClient.reconnectNow: skips the backoff wait, restarts a stopped client, leaves a live one alone", .slotted)
struct ClientReconnectNowTests {
    @Test func skipsTheWaitAndTheOldTimerNeverFiresLater() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        h.deliver(.closed(code: 1006, reason: ""))
        #expect(h.statuses.last == .reconnecting(attempt: 1, delay: 0.5))
        h.client.reconnectNow()
        h.scheduler.advance()
        #expect(h.transport.connections.count == 2, "reconnected without waiting 0.5 s")
        #expect(h.statuses.last == .connecting(attempt: 1))
        // That attempt fails too: the new wait (1 s) is not cut short by the first wait's timer (0.5 s).
        h.deliver(.failed(TransportFailure(.cannotConnect, "refused")))
        #expect(h.statuses.last == .reconnecting(attempt: 2, delay: 1))
        h.scheduler.advance(by: 0.6)
        #expect(h.transport.connections.count == 2)
        h.scheduler.advance(by: 0.4)
        #expect(h.transport.connections.count == 3)
    }

    @Test func restartsAStoppedClient() {
        let h = ClientHarness()
        h.start()
        h.deliver(.failed(TransportFailure(.tls, "certificate not trusted")))
        #expect(h.statuses.last == .stopped(.transportFailed(kind: .tls, message: "certificate not trusted")))
        h.client.reconnectNow()
        h.scheduler.advance()
        #expect(h.transport.connections.count == 2)
        #expect(h.statuses.last == .connecting(attempt: 0))
    }

    @Test func doesNothingWhileLive() {
        let h = ClientHarness()
        h.start()
        h.connect(mode: .live, head: 0)
        let before = h.statuses
        h.client.reconnectNow()
        h.scheduler.advance(by: 0.1)
        #expect(h.transport.connections.count == 1)
        #expect(h.statuses == before)
    }
}
