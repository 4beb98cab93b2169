import GoalModel
import GoalTestSlots
import Testing

@testable import GoalWire

/// The presence messages' wire form (docs/PROTOCOL.md §4 "Presence") and the node-to-node payloads.
@Suite("presence coding", .slotted)
struct PresenceCodingTests {
    let member = PresenceMember(
        id: "node-1/7",
        name: "Bob \"the\" builder",
        clientInstance: ClientInstanceID("3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f")!,
        node: "node-1",
        activity: .editing(MatchID("c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f")!),
        since: Timestamp(millisecondsSince1970: 1_790_000_000_000)
    )

    @Test func clientMessagesRoundTrip() throws {
        let match = MatchID()
        for activity in [PresenceActivity.online, .viewing(nil), .viewing(match), .editing(match)] {
            let message = ClientMessage.presence(activity)
            #expect(try ClientMessage.decode(message.encoded()) == message)
        }
        let hello = ClientMessage.hello(.init(token: "t", clientInstance: .random(), presence: .all))
        #expect(try ClientMessage.decode(hello.encoded()) == hello)
        let old = ClientMessage.hello(.init(token: "t", clientInstance: .random()))
        #expect(!String(decoding: old.encoded(), as: UTF8.self).contains("presence"), "absent means none")
    }

    @Test func exactWireForm() {
        let text = String(decoding: ServerMessage.presence(PresenceEvent(.join, member)).encoded(), as: UTF8.self)
        #expect(
            text
                == #"{"type":"presence","event":"join","member":{"id":"node-1/7","name":"Bob \"the\" builder","client_instance":"3f2c9a1e-7b4d-4c1a-9e8f-0a1b2c3d4e5f","node":"node-1","state":"editing","match":"c4a7e2f1-9b3d-4e6a-8f5c-2d1e0b9a8c7f","since":1790000000000}}"#
        )
        let announce = String(decoding: ClientMessage.presence(.viewing(nil)).encoded(), as: UTF8.self)
        #expect(announce == #"{"type":"presence","state":"viewing"}"#)
    }

    @Test func serverMessagesRoundTrip() throws {
        for message in [
            ServerMessage.presenceState([member, member]), .presenceState([]),
            .presence(PresenceEvent(.update, member)), .presence(PresenceEvent(.leave, member)),
        ] {
            #expect(try ServerMessage.decode(message.encoded()) == message)
        }
    }

    @Test func badAnnouncementsNameTheField() {
        #expect(throws: WireDecodingError.self) {
            try ClientMessage.decode(Array(#"{"type":"presence","state":"editing"}"#.utf8))
        }
        #expect(throws: WireDecodingError.self) {
            try ClientMessage.decode(Array(#"{"type":"presence","state":"sleeping"}"#.utf8))
        }
        do {
            _ = try ClientMessage.decode(Array(#"{"type":"presence","state":"editing"}"#.utf8))
        } catch {
            #expect(error.description.contains("presence.match"))
        }
    }

    @Test func relayPayloadsStayUnderTheirBound() throws {
        let many = (0..<200).map { index in
            var copy = member
            copy.id = "node-1/\(index)"
            return copy
        }
        let payloads = PresenceRelayMessage.refreshPayloads(
            node: "node-1",
            generation: 4,
            members: many,
            maxBytes: 7_000
        )
        #expect(payloads.count > 1)
        var decoded: [PresenceMember] = []
        for (index, payload) in payloads.enumerated() {
            #expect(payload.utf8.count <= 7_000)
            guard
                case .refresh("node-1", 4, index, payloads.count, let members) = try PresenceRelayMessage.decode(
                    payload
                )
            else {
                Issue.record("not a refresh part")
                continue
            }
            decoded += members
        }
        #expect(decoded == many)
        #expect(
            PresenceRelayMessage.refreshPayloads(node: "n", generation: 1, members: [], maxBytes: 7_000).count == 1
        )
        let event = PresenceRelayMessage.event(node: "n", PresenceEvent(.leave, member))
        #expect(try PresenceRelayMessage.decode(event.encoded()) == event)
    }

    @Test func backlogCoalescesPerMember() {
        var members: [PresenceMember] = []
        members.apply(PresenceEvent(.join, member))
        var edited = member
        edited.activity = .online
        members.apply(PresenceEvent(.update, edited))
        #expect(members == [edited])
        members.apply(PresenceEvent(.leave, edited))
        #expect(members.isEmpty)
    }
}
