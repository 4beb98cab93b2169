import GoalModel
import GoalTestSlots
import Testing

/// docs/RULES.md "Domain rules": NFC, trimmed of Unicode whitespace, 1–64 grapheme clusters, no control,
/// bidi-override or zero-width characters; unique by the case-folded NFC key.
@Suite("Player name rules", .slotted)
struct PlayerNameTests {
    struct Accepted: Sendable, CustomTestStringConvertible {
        let input: String
        let value: String
        let key: String
        var testDescription: String { input.debugDescription }
    }

    @Test(
        "Accepted names normalize to this value and key",
        arguments: [
            Accepted(input: "Alice", value: "Alice", key: "alice"),
            Accepted(input: "  Alice \n", value: "Alice", key: "alice"),
            Accepted(input: "\tBob\r\n", value: "Bob", key: "bob"),
            Accepted(input: "\u{3000}Bob\u{00A0}\u{2003}", value: "Bob", key: "bob"),
            Accepted(input: "Mary Jane", value: "Mary Jane", key: "mary jane"),
            Accepted(input: "E\u{0301}mile", value: "\u{00C9}mile", key: "\u{00E9}mile"),
            Accepted(input: "\u{00C9}MILE", value: "\u{00C9}MILE", key: "\u{00E9}mile"),
            Accepted(input: "Straße", value: "Straße", key: "strasse"),
            Accepted(input: "ΣΑΣ", value: "ΣΑΣ", key: "σασ"),
            Accepted(
                input: String(repeating: "a", count: 64),
                value: String(repeating: "a", count: 64),
                key: String(repeating: "a", count: 64)
            ),
            Accepted(
                input: String(repeating: "👍🏽", count: 64),
                value: String(repeating: "👍🏽", count: 64),
                key: String(repeating: "👍🏽", count: 64)
            ),
            Accepted(
                input: String(repeating: "e\u{0301}", count: 64),
                value: String(repeating: "\u{00E9}", count: 64),
                key: String(repeating: "\u{00E9}", count: 64)
            ),
            Accepted(input: "👩‍💻 Ada", value: "👩‍💻 Ada", key: "👩‍💻 ada"),
            Accepted(input: "🏳️‍🌈", value: "🏳️‍🌈", key: "🏳️‍🌈"),
            Accepted(input: "👨‍👩‍👧", value: "👨‍👩‍👧", key: "👨‍👩‍👧"),
            Accepted(input: "x", value: "x", key: "x"),
        ]
    )
    func accepted(_ row: Accepted) throws {
        let name = try PlayerName(validating: row.input)
        #expect(name.value == row.value)
        #expect(name.key == row.key)
        #expect(name.value.count <= PlayerName.maximumLength)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let input: String
        let error: PlayerNameError
        var testDescription: String { input.debugDescription }
    }

    @Test(
        "Refused names throw this error",
        arguments: [
            Refused(input: "", error: .empty),
            Refused(input: "   \n\t", error: .empty),
            Refused(input: "\u{3000}", error: .empty),
            Refused(input: String(repeating: "a", count: 65), error: .tooLong(65)),
            Refused(input: " " + String(repeating: "a", count: 65) + " ", error: .tooLong(65)),
            Refused(input: String(repeating: "👍🏽", count: 65), error: .tooLong(65)),
            Refused(input: String(repeating: "e\u{0301}", count: 65), error: .tooLong(65)),
            Refused(input: "Al\u{0007}ice", error: .forbiddenCharacter("\u{0007}")),
            Refused(input: "Al\tice", error: .forbiddenCharacter("\t")),
            Refused(input: "Al\u{0000}ice", error: .forbiddenCharacter("\u{0000}")),
            Refused(input: "Al\u{007F}ice", error: .forbiddenCharacter("\u{007F}")),
            Refused(input: "Al\u{0085}ice", error: .forbiddenCharacter("\u{0085}")),
            Refused(input: "\u{202E}ecilA", error: .forbiddenCharacter("\u{202E}")),
            Refused(input: "Alice\u{202A}", error: .forbiddenCharacter("\u{202A}")),
            Refused(input: "A\u{2066}lice", error: .forbiddenCharacter("\u{2066}")),
            Refused(input: "A\u{061C}lice", error: .forbiddenCharacter("\u{061C}")),
            Refused(input: "Al\u{200B}ice", error: .forbiddenCharacter("\u{200B}")),
            Refused(input: "Al\u{200D}ice", error: .forbiddenCharacter("\u{200D}")),
            Refused(input: "Al\u{200C}ice", error: .forbiddenCharacter("\u{200C}")),
            Refused(input: "Al\u{2060}ice", error: .forbiddenCharacter("\u{2060}")),
            Refused(input: "\u{FEFF}Alice", error: .forbiddenCharacter("\u{FEFF}")),
            Refused(input: "👍\u{200D}", error: .forbiddenCharacter("\u{200D}")),
            Refused(input: "a\u{200D}👍", error: .forbiddenCharacter("\u{200D}")),
        ]
    )
    func refused(_ row: Refused) {
        #expect(throws: row.error) { try PlayerName(validating: row.input) }
    }

    @Test("Keys fold case and normalization; display values keep the author's case")
    func keys() throws {
        let pairs: [(String, String, Bool)] = [
            ("alice", "Alice", true),
            ("ALICE", "alice", true),
            ("E\u{0301}mile", "\u{00E9}mile", true),
            ("Straße", "STRASSE", true),
            ("Alice", "Alicia", false),
            ("Bob", "Bob ", true),
        ]
        for (lhs, rhs, same) in pairs {
            let left = try PlayerName(validating: lhs)
            let right = try PlayerName(validating: rhs)
            #expect((left.key == right.key) == same, "\(lhs) vs \(rhs)")
        }
        #expect(try PlayerName(validating: "alice").value != PlayerName(validating: "Alice").value)
    }

    @Test("Error descriptions tell the user what to fix")
    func descriptions() {
        #expect(PlayerNameError.empty.description.contains("empty"))
        #expect(PlayerNameError.tooLong(65).description.contains("64"))
        #expect(PlayerNameError.tooLong(65).description.contains("65"))
        #expect(PlayerNameError.forbiddenCharacter("\u{202E}").description.hasSuffix("U+202E"))
        #expect(PlayerNameError.forbiddenCharacter("\u{7}").description.hasSuffix("U+0007"))
    }
}
