import Foundation
import GoalModel
import GoalTestSlots
import GoalWire
import Testing

/// Issue 14 point 14: the exactly-once record's stored form is GoalWire's, and rows written before (by
/// `JSONEncoder` over GoalModel's former `Codable` conformances) still read back.
@Suite("The exactly-once record's stored JSON", .slotted)
struct ClientResultsCodingTests {
    static let entries: [ClientRecord.Entry] = [
        ClientRecord.Entry(seq: 1, fingerprint: PayloadFingerprint(rawValue: 0xAB), outcome: .committed(4)),
        ClientRecord.Entry(seq: 2, fingerprint: PayloadFingerprint(rawValue: .max), outcome: .noop(4)),
        ClientRecord.Entry(
            seq: 3,
            fingerprint: PayloadFingerprint(rawValue: 7),
            outcome: .rejected(
                MutationRejection(
                    code: .conflict,
                    message: "a/b \"c\"",
                    fields: ["home_goals"],
                    current: .match(Fixtures.match(2))
                )
            )
        ),
        ClientRecord.Entry(
            seq: 4,
            fingerprint: PayloadFingerprint(rawValue: 8),
            outcome: .rejected(MutationRejection(code: .emptySide, message: "m", fields: ["home_players"]))
        ),
    ]

    @Test("encode then decode gives the same entries")
    func roundTrip() throws {
        #expect(try ClientResultsCoding.decode(ClientResultsCoding.encode(Self.entries)) == Self.entries)
        #expect(try ClientResultsCoding.decode(ClientResultsCoding.encode([])) == [])
    }

    @Test("the shape is the one earlier versions stored")
    func shape() {
        let text = String(decoding: ClientResultsCoding.encode(Array(Self.entries.prefix(2))), as: UTF8.self)
        #expect(
            text == #"[{"fingerprint":"00000000000000ab","outcome":{"outcome":"committed","revision":4},"seq":1},"#
                + #"{"fingerprint":"ffffffffffffffff","outcome":{"outcome":"noop","revision":4},"seq":2}]"#
        )
    }

    @Test("a row written by JSONEncoder (escaped slashes) reads back")
    func legacyRow() throws {
        let legacy =
            #"[{"fingerprint":"0000000000000007","outcome":{"code":"name_taken","fields":["name"],"#
            + #""message":"the name \"A\/B\" is taken","outcome":"rejected"},"seq":12}]"#
        let entries = try ClientResultsCoding.decode(Array(legacy.utf8))
        #expect(entries.count == 1)
        #expect(entries.first?.seq == 12)
        #expect(entries.first?.fingerprint.rawValue == 7)
        #expect(
            entries.first?.outcome
                == .rejected(
                    MutationRejection(code: .nameTaken, message: #"the name "A/B" is taken"#, fields: ["name"])
                )
        )
    }

    @Test("a damaged row is a typed error naming the field")
    func damaged() {
        do {
            _ = try ClientResultsCoding.decode(
                Array(#"[{"fingerprint":"xyz","outcome":{"outcome":"noop","revision":1},"seq":1}]"#.utf8)
            )
            Issue.record("accepted a bad fingerprint")
        } catch {
            #expect(error.path == "results[0].fingerprint")
        }
    }
}
