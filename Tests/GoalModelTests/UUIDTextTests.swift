import Foundation
import GoalModel
import GoalTestSlots
import Testing

@Suite("UUIDText: the canonical 36-character form, by hand", .slotted)
struct UUIDTextTests {
    static let canonical = "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1"

    @Test("reads lowercase, uppercase and mixed case to Foundation's value")
    func reads() throws {
        let expected = try #require(UUID(uuidString: Self.canonical))
        #expect(UUIDText.parse(Self.canonical) == expected)
        #expect(UUIDText.parse(Self.canonical.uppercased()) == expected)
        #expect(UUIDText.parse("8F14e45f-CEEA-467f-a0E6-ae4bA9d5f9b1") == expected)
        #expect(PlayerID(Self.canonical.uppercased())?.description == Self.canonical)
        #expect(MatchID(Self.canonical)?.uuid == expected)
    }

    @Test("round-trips random UUIDs and every hex digit in every place")
    func roundTrips() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
        for digit in Array("0123456789abcdefABCDEF") {
            let text = String(Self.canonical.map { $0 == "-" ? "-" : digit })
            #expect(UUIDText.parse(text) == UUID(uuidString: text), "\(text)")
        }
    }

    @Test("lowercaseOnly reads goald's own form and refuses any uppercase digit, in any place")
    func lowercaseOnly() throws {
        let expected = try #require(UUID(uuidString: Self.canonical))
        let read = { (text: String) in
            Array(text.utf8).withUnsafeBufferPointer { UUIDText.parse($0, lowercaseOnly: true) }
        }
        #expect(read(Self.canonical) == expected)
        for (index, character) in Self.canonical.enumerated() where character.isLetter {
            var text = Array(Self.canonical)
            text[index] = Character(character.uppercased())
            #expect(read(String(text)) == nil, "\(String(text))")
            #expect(UUIDText.parse(String(text)) == expected)
        }
    }

    @Test("writes Foundation's text in lowercase, for random UUIDs and every hex digit in every place")
    func writes() throws {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
        }
        for digit in Array("0123456789abcdef") {
            let text = String(Self.canonical.map { $0 == "-" ? "-" : digit })
            let uuid = try #require(UUID(uuidString: text))
            #expect(UUIDText.lowercase(uuid) == text)
            #expect(PlayerID(uuid).description == text && MatchID(uuid).description == text)
        }
    }

    @Test(
        "refuses everything but the canonical form",
        arguments: [
            "",
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b",  // 35 characters
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b10",  // 37
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9bg",  // not hex
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9 1",  // a space
            "+f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1",  // a sign (Foundation's sscanf took it)
            "8f14e45f- eea-467f-a0e6-ae4ba9d5f9b1",  // a space (Foundation's sscanf took it)
            "8f14e45fceea-467f-a0e6-ae4ba9d5f9b1-",  // a dash out of place
            "8f14e45f_ceea_467f_a0e6_ae4ba9d5f9b1",  // other separators
            "8f14e45f-ceea-467f-a0e6ae4ba9d5f9b1",  // a dash missing
            "8f14e45fceea467fa0e6ae4ba9d5f9b1",  // no dashes
            "{8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1}",  // braces
            " 8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1",
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9b1\n",
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9bé",  // non-ASCII, 37 bytes
            "8f14e45f-ceea-467f-a0e6-ae4ba9d5f9\u{0}1",
        ]
    )
    func refuses(text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(PlayerID(text) == nil)
        #expect(MatchID(text) == nil)
    }

    @Test("reads from bytes: exactly 36 of them")
    func bytes() {
        let utf8 = Array(Self.canonical.utf8)
        #expect(utf8.withUnsafeBufferPointer { UUIDText.parse($0) } == UUID(uuidString: Self.canonical))
        #expect(utf8.dropLast().withUnsafeBufferPointer { UUIDText.parse($0) } == nil)
        #expect((utf8 + [0x30]).withUnsafeBufferPointer { UUIDText.parse($0) } == nil)
    }
}
