import Dispatch
import GoalClient
import GoalModel
import GoalReactive
import GoalTestSlots
import GoalWire
import Testing

/// GoalClient's presence (issue 20 point 2): the hello asks for it, the list follows `presence_state` and the
/// events, empties on disconnect, and the client's activity is announced once welcomed and again after a reconnect.
@Suite("GoalClient presence", .slotted)
struct ClientPresenceTests {
    func member(_ name: String, _ activity: PresenceActivity) -> PresenceMember {
        PresenceMember(
            id: "n/\(name)",
            name: name,
            clientInstance: ClientInstanceID(name)!,
            node: "n",
            activity: activity,
            since: Timestamp(millisecondsSince1970: 1)
        )
    }

    @Test func theListFollowsStateAndEvents() {
        let harness = ClientHarness()
        harness.start()
        harness.connect(mode: .live, head: 0)
        #expect(harness.transport.last.sent.first?.hello?.presence == .all)
        #expect(harness.client.presence.value.isEmpty)
        #expect(!harness.client.presenceKnown.value)

        let ann = member("ann", .online)
        harness.deliver(.presenceState([ann]))
        #expect(harness.client.presence.value == [ann])
        #expect(harness.client.presenceKnown.value)

        let match = MatchID()
        let bob = member("bob", .editing(match))
        harness.deliver(.presence(PresenceEvent(.join, bob)))
        var annViewing = ann
        annViewing.activity = .viewing(match)
        harness.deliver(.presence(PresenceEvent(.update, annViewing)))
        #expect(harness.client.presence.value == [annViewing, bob])
        harness.deliver(.presence(PresenceEvent(.leave, annViewing)))
        #expect(harness.client.presence.value == [bob])
        #expect(harness.client.status.value == .live(roundTrip: nil), "presence never disturbs the stream")

        harness.deliver(.closed(code: 1001, reason: "going away"))
        #expect(harness.client.presence.value.isEmpty, "nobody is known to be present while disconnected")
        #expect(!harness.client.presenceKnown.value)
    }

    @Test func theActivityIsAnnouncedOnceTheServerKnowsPresenceAndAgainAfterAReconnect() {
        let harness = ClientHarness(jitter: [0, 0, 0])
        let match = MatchID()
        harness.client.announce(.editing(match))  // before any connection: kept
        harness.start()
        harness.connect(mode: .live, head: 0)
        #expect(harness.transport.last.sent.count == 1, "nothing before the server shows it knows presence")
        harness.deliver(.presenceState([]))
        #expect(harness.transport.last.sent.dropFirst().map { $0 } == [.presence(.editing(match))])

        harness.client.announce(.editing(match))  // the same again: nothing sent
        harness.scheduler.advance()
        harness.client.announce(.viewing(nil))
        harness.scheduler.advance()
        #expect(
            harness.transport.last.sent.dropFirst().map { $0 } == [
                .presence(.editing(match)), .presence(.viewing(nil)),
            ]
        )

        let first = harness.transport.last
        harness.deliver(.closed(code: 1001, reason: "going away"))
        harness.scheduler.advance(by: .seconds(60))
        #expect(harness.transport.last !== first, "reconnected")
        harness.connect(mode: .live, head: 0)
        harness.deliver(.presenceState([]))
        #expect(harness.transport.last.sent.dropFirst().map { $0 } == [.presence(.viewing(nil))])
    }

    @Test func aClientThatObservesNeverAnnounces() {
        let harness = ClientHarness { $0.presence = .observe }
        harness.start()
        harness.connect(mode: .live, head: 0)
        harness.deliver(.presenceState([]))
        harness.client.announce(.editing(MatchID()))
        harness.scheduler.advance()
        #expect(harness.transport.last.sent.first?.hello?.presence == .observe)
        #expect(harness.transport.last.sent.count == 1)
    }
}
