import Foundation
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Synchronization
import Testing

/// `GoalClient.history(_:)` on a scripted connection: requests wait for a welcome that offers history, go out one at
/// a time, are sent again after a reconnect, and fail against an older server or when the client stops.
@Suite("GoalClient history requests", .slotted)
struct ClientHistoryTests {
    final class Answers: Sendable {
        let results = Mutex<[Result<HistoryPageMessage, HistoryError>]>([])
        var all: [Result<HistoryPageMessage, HistoryError>] { results.withLock { $0 } }
    }

    func request(_ client: GoalClient, _ entity: EntityRef, into answers: Answers) {
        client.history(HistoryRequest(entity: entity)).startWithResult { result in
            answers.results.withLock { $0.append(result) }
        }
    }

    func historyRequests(_ h: ClientHarness) -> [HistoryRequest] {
        h.transport.connections.flatMap(\.sent).compactMap {
            if case .history(let request) = $0 { request } else { nil }
        }
    }

    func welcome(_ h: ClientHarness, history: Bool) {
        var welcome = h.welcome(mode: .live, head: 0, digest: .genesis)
        welcome.history = history
        h.deliver(.connected)
        h.deliver(.welcome(welcome))
    }

    let page = HistoryPageMessage(entries: [], nextBefore: nil, retainedFrom: 1, pruned: true)

    @Test("one at a time after the welcome; the one on the wire is sent again after a reconnect")
    func queueAndReconnect() {
        let h = ClientHarness()
        let answers = Answers()
        let (first, second) = (EntityRef.player(PlayerID()), EntityRef.match(MatchID()))
        h.start()
        request(h.client, first, into: answers)
        request(h.client, second, into: answers)
        h.scheduler.advance()
        #expect(historyRequests(h).isEmpty, "nothing is sent before a welcome")
        welcome(h, history: true)
        #expect(historyRequests(h).map(\.entity) == [first])
        h.deliver(.closed(code: 1001, reason: "restart"))
        h.scheduler.advance(by: 60)
        welcome(h, history: true)
        #expect(historyRequests(h).map(\.entity) == [first, first], "re-sent on the new connection")
        h.deliver(.history(HistoryAnswer(entity: first, result: .page(page))))
        #expect(historyRequests(h).map(\.entity) == [first, first, second])
        h.deliver(.history(HistoryAnswer(entity: second, result: .refused(.unknownEntity, message: "no match"))))
        let all = answers.all
        #expect(all.count == 2)
        #expect((try? all.first?.get()) == page)  // a failure shows as nil here
        guard case .failure(let error)? = all.last else {
            Issue.record("\(all)")
            return
        }
        #expect(error.kind == .refused(.unknownEntity) && error.description == "no match")
    }

    @Test("an older server (no history in welcome) fails the requests; so does stopping")
    func unsupportedAndStopped() {
        let h = ClientHarness()
        let answers = Answers()
        h.start()
        request(h.client, .player(PlayerID()), into: answers)
        welcome(h, history: false)
        #expect(historyRequests(h).isEmpty)
        #expect(answers.all.count == 1)
        if case .failure(let error)? = answers.all.first { #expect(error.kind == .unsupported) }

        request(h.client, .player(PlayerID()), into: answers)
        h.scheduler.advance()
        h.client.stop()
        h.scheduler.advance()
        #expect(answers.all.count == 2)
        if case .failure(let error)? = answers.all.last { #expect(error.kind == .stopped) }
    }
}
