import Foundation

/// Why a player name was refused. Each case's `description` tells the user what to change.
public struct PlayerNameError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case empty
        case tooLong(Int)
        case forbiddenCharacter(Unicode.Scalar)
    }

    private let kind: Kind

    /// The name is empty once surrounding whitespace is trimmed.
    public static let empty = PlayerNameError(kind: .empty)
    /// The name has more than `PlayerName.maximumLength` characters (grapheme clusters).
    public static func tooLong(_ count: Int) -> PlayerNameError { PlayerNameError(kind: .tooLong(count)) }
    /// The name contains a control, bidi-override or zero-width character.
    public static func forbiddenCharacter(_ scalar: Unicode.Scalar) -> PlayerNameError {
        PlayerNameError(kind: .forbiddenCharacter(scalar))
    }

    /// The rejection code of the broken rule: `blank_name`, `name_too_long` or `forbidden_character`.
    public var rejectionCode: MutationRejection.Code {
        switch kind {
        case .empty: .blankName
        case .tooLong: .nameTooLong
        case .forbiddenCharacter: .forbiddenCharacter
        }
    }

    public var description: String {
        switch kind {
        case .empty:
            "a player name cannot be empty or only whitespace"
        case .tooLong(let count):
            "a player name has at most \(PlayerName.maximumLength) characters; this one has \(count)"
        case .forbiddenCharacter(let scalar):
            "a player name cannot contain control, bidi-override or zero-width characters; found U+"
                + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
    }
}

/// A validated player name: NFC, trimmed of Unicode whitespace, 1–64 grapheme clusters, no control,
/// bidi-override or zero-width characters; `key` (case-folded NFC) decides uniqueness.
///
/// Value type, `Sendable`. The only way to build one is `init(validating:)`, so holding one proves the rules.
public struct PlayerName: Hashable, Sendable, CustomStringConvertible {
    /// The most grapheme clusters a name may have.
    public static let maximumLength = 64

    /// The normalized display name.
    public let value: String
    /// The uniqueness key: the case-folded NFC form of `value`.
    public let key: String

    /// Normalizes and validates raw input.
    /// - Throws: `PlayerNameError` naming what to fix.
    public init(validating raw: String) throws(PlayerNameError) {
        let normalized = raw.precomposedStringWithCanonicalMapping
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !normalized.isEmpty else { throw .empty }
        let scalars = Array(normalized.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where PlayerName.isForbidden(scalar) {
            // A zero-width joiner inside an emoji sequence (👩‍💻, 🏳️‍🌈) is part of one visible character.
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            guard PlayerName.isEmojiJoiner(scalar, between: previous, and: next) else {
                throw .forbiddenCharacter(scalar)
            }
        }
        let length = normalized.count
        guard length <= PlayerName.maximumLength else { throw .tooLong(length) }
        value = normalized
        key = PlayerName.key(for: normalized)
    }

    /// The uniqueness key of an already-normalized name: case-folded, then NFC again.
    public static func key(for name: String) -> String {
        name.folding(options: [.caseInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    public var description: String { value }

    /// Control characters (Cc), bidi embedding/override/isolate controls and marks, and zero-width characters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x200B...0x200F,  // zero-width space, ZWNJ, ZWJ, LRM, RLM
            0x202A...0x202E,  // bidi embeddings and overrides
            0x2060...0x2064,  // word joiner, invisible operators
            0x2066...0x2069,  // bidi isolates
            0x061C,  // Arabic letter mark
            0xFEFF:  // zero-width no-break space (BOM)
            return true
        default:
            return false
        }
    }
}

extension PlayerName {
    /// True for U+200D ZERO WIDTH JOINER between an emoji (or its modifier or variation selector) and a
    /// non-ASCII emoji: an emoji ZWJ sequence, which renders as one grapheme. Anywhere else it stays forbidden.
    static func isEmojiJoiner(
        _ scalar: Unicode.Scalar,
        between previous: Unicode.Scalar?,
        and next: Unicode.Scalar?
    ) -> Bool {
        guard scalar.value == 0x200D, let previous, let next else { return false }
        let previousIsEmoji =
            (previous.properties.isEmoji && previous.value > 0x7F) || previous.properties.isEmojiModifier
            || previous.value == 0xFE0F
        return previousIsEmoji && next.properties.isEmoji && next.value > 0x7F
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
