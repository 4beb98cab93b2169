import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

@Suite("Canonical encoding: GoalWire's writers and readers are the one codec of the model", .slotted)
struct CanonicalEncodingTests {
    @Test("the canonical payload is what Foundation's sorted-key serialization of the same object gives")
    func payloadMatchesFoundation() throws {
        // An independent oracle: JSONSerialization re-writes the payload with sorted keys; the strings here need
        // only the escapes both agree on.
        var changeset = Fixtures.changeset(changes: 30)
        changeset.changes = changeset.changes.map { change in
            if case .playerUpserted(var player) = change {
                player.name = "Zoë \"Z\" Ünal / \\ 🏓"
                return .playerUpserted(player)
            }
            return change
        }
        let payload = ChangesetFrame.payload(of: changeset)
        let object = try JSONSerialization.jsonObject(with: Data(payload))
        let foundation = try JSONSerialization.data(
            withJSONObject: object,
            options: [.sortedKeys, .withoutEscapingSlashes]
        )
        #expect(String(decoding: payload, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test("encoding is deterministic: same value, same bytes; decode then re-encode gives the same bytes")
    func determinism() throws {
        let changeset = Fixtures.changeset(changes: 100)
        let first = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        let second = ChangesetFrame.encode(changeset, previousDigest: .genesis)
        #expect(first == second)
        guard case .changeset(let decoded) = try ServerMessage.decode(first.bytes) else {
            Issue.record("not a changeset")
            return
        }
        #expect(decoded == changeset)
        #expect(ChangesetFrame.payload(of: decoded) == ChangesetFrame.payload(of: changeset))
        #expect(ServerMessage.changeset(decoded).encoded() == first.bytes)
    }

    @Test("the payload has no whitespace, sorted keys and no digest")
    func payloadShape() {
        let text = String(decoding: ChangesetFrame.payload(of: Fixtures.changeset()), as: UTF8.self)
        #expect(text.hasPrefix(#"{"action":{"delta":1,"id":"#))
        #expect(
            text.contains(
                #""client_instance":"8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1","revision":42,"seq":17,"time":1767225600123}"#
            )
        )
        #expect(!text.contains("digest") && !text.contains("\"type\""))
        #expect(!text.contains(": ") && !text.contains(", "))
    }

    @Test("strings escape only quote, backslash and control characters")
    func escaping() throws {
        let name = "a\"b\\c/d\u{01}\u{08}\u{09}\u{0A}\u{0C}\u{0D}\u{1F}é\u{2028}🏓"
        let bytes = ClientMessage.mutate(
            ClientMessage.Mutate(seq: 1, base: 0, action: .createPlayer(id: Fixtures.playerID(1), name: name))
        ).encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""name":"a\"b\\c/d\u0001\b\t\n\f\r\u001fé\#u{2028}🏓""#))
        guard case .mutate(let mutate) = try ClientMessage.decode(bytes),
            case .createPlayer(_, let decoded) = mutate.action
        else {
            Issue.record("wrong message")
            return
        }
        #expect(Array(decoded.unicodeScalars) == Array(name.unicodeScalars))
    }

    @Test("stamps travel as {by, rev} and ids as lowercase UUIDs")
    func stampAndIDShape() throws {
        let chunk = ServerMessage.SnapshotChunk(players: [Fixtures.player(10)])
        let text = String(decoding: ServerMessage.snapshotChunk(chunk).encoded(), as: UTF8.self)
        #expect(text.contains(#""created":{"by":"8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1","rev":10}"#))
        #expect(text.contains(#""id":"9a7e0000-0000-4000-8000-00000000000a""#))
    }
}
