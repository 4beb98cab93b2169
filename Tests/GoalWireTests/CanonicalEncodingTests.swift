import Foundation
import GoalModel
import GoalWire
import Testing

@Suite("Canonical encoding and the model's Codable conformances")
struct CanonicalEncodingTests {
    static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    @Test("the canonical payload equals JSONEncoder's sorted output of the same changeset minus its digest")
    func payloadMatchesFoundation() throws {
        // Foundation may escape control characters differently from RFC 8785, so this changeset's strings need
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
        let foundation = try Self.sortedEncoder.encode(CodableBox(changeset: changeset))
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
        #expect(text.contains(#""client_instance":"8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1","revision":42,"seq":17,"time":1767225600123}"#))
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

    @Test("model Codable conformances round-trip through JSONEncoder and JSONDecoder")
    func codableRoundTrips() throws {
        let decoder = JSONDecoder()
        func roundTrip<T: Codable & Equatable>(_ value: T) throws {
            let data = try Self.sortedEncoder.encode(value)
            #expect(try decoder.decode(T.self, from: data) == value)
        }
        try roundTrip(Fixtures.player(3))
        try roundTrip(Fixtures.match(4, players: 3))
        try roundTrip(Fixtures.rating(5))
        try roundTrip(Fixtures.changeset(changes: 12))
        try roundTrip(Fixtures.actions)
        try roundTrip(Mutation(id: MutationID(instance: Fixtures.alice, seq: 3), base: 9, action: Fixtures.actions[7]))
        try roundTrip(MutationOutcome.committed(4))
        try roundTrip(MutationOutcome.noop(4))
        try roundTrip(MutationOutcome.rejected(MutationRejection(code: .conflict, message: "m", fields: ["name"], current: .player(Fixtures.player(1)))))
        try roundTrip([Side.home, .away])
        try roundTrip(Role.allCases)
        try roundTrip(MatchField.allCases)
        try roundTrip(Timestamp(millisecondsSince1970: -5))
    }

    @Test("the hand-written entity writers produce JSONEncoder's sorted bytes")
    func writersMatchCodable() throws {
        let chunk = ServerMessage.SnapshotChunk(
            players: [Fixtures.player(1), Fixtures.player(2)],
            matches: [Fixtures.match(3)],
            ratings: [Fixtures.rating(4)]
        )
        let text = String(decoding: ServerMessage.snapshotChunk(chunk).encoded(), as: UTF8.self)
        for player in chunk.players {
            #expect(text.contains(String(decoding: try Self.sortedEncoder.encode(player), as: UTF8.self)))
        }
        #expect(text.contains(String(decoding: try Self.sortedEncoder.encode(chunk.matches[0]), as: UTF8.self)))
        #expect(text.contains(String(decoding: try Self.sortedEncoder.encode(chunk.ratings[0]), as: UTF8.self)))
    }

    @Test("stamps travel as {rev, by} and ids as lowercase UUIDs")
    func stampAndIDShape() throws {
        let text = String(decoding: try Self.sortedEncoder.encode(Fixtures.player(10)), as: UTF8.self)
        #expect(text.contains(#""created":{"by":"8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1","rev":10}"#))
        #expect(text.contains(#""id":"9a7e0000-0000-4000-8000-00000000000a""#))
    }
}

/// The changeset's Codable form without its digest, to compare with the canonical payload.
private struct CodableBox: Encodable {
    let changeset: Changeset

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(changeset.action, forKey: Key("action"))
        try container.encode(changeset.author, forKey: Key("author"))
        try container.encode(changeset.changes, forKey: Key("changes"))
        try changeset.mutationID?.encode(to: encoder)
        try container.encode(changeset.revision, forKey: Key("revision"))
        try container.encode(changeset.time, forKey: Key("time"))
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
