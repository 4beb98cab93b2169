/// Why a text is not a league slug. Value type, `Sendable`.
public struct LeagueSlugError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was refused.
    public let text: String

    public var description: String {
        "\"\(text)\" is not a league id: use 1–\(LeagueSlug.maximumLength) lowercase letters a–z, digits and single "
            + "hyphens, starting and ending with a letter or digit (e.g. office-berlin)"
    }
}

/// A league's id: a slug such as `office-berlin`, 1–40 characters of `a`–`z`, `0`–`9` and single hyphens, starting
/// and ending with a letter or digit. It names the league on the wire (`hello.league`), in URLs (`/l/{league}/`,
/// `/api/v1/leagues/{league}/…`), in token grants and in store names (a file, a PostgreSQL schema), so the alphabet is
/// what all of those take without escaping. `default` is the league of a daemon's first start and of every client
/// that names none.
///
/// Value type, `Sendable`; ordered by its text.
public struct LeagueSlug: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The longest slug.
    public static let maximumLength = 40
    /// The league every client that names none follows, and that an existing state directory or database becomes.
    public static let `default` = LeagueSlug(checked: "default")

    /// The slug's text.
    public let rawValue: String

    /// Reads a slug.
    /// - Throws: `LeagueSlugError` when `text` breaks a rule.
    public init(validating text: String) throws(LeagueSlugError) {
        guard Self.isValid(text) else { throw LeagueSlugError(text: text) }
        rawValue = text
    }

    private init(checked text: String) { rawValue = text }

    /// Whether `text` is a slug.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...maximumLength).contains(bytes.count) else { return false }
        var previousHyphen = true  // a slug may not start with a hyphen
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                previousHyphen = false
            case UInt8(ascii: "-"):
                if previousHyphen { return false }
                previousHyphen = true
            default:
                return false
            }
        }
        return !previousHyphen
    }

    /// Whether this is the default league.
    public var isDefault: Bool { self == .default }

    public var description: String { rawValue }

    public static func < (lhs: LeagueSlug, rhs: LeagueSlug) -> Bool { lhs.rawValue < rhs.rawValue }
}
