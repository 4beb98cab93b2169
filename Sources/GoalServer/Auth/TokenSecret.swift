import Crypto
import Foundation

/// An access token's secret: 43 base64url characters from the system's cryptographically secure generator.
///
/// The first character is a letter or digit (62 choices), never `-` or `_`: secrets are pasted into shells, where a
/// leading `-` reads as an option. The other 42 are any of the 64. That is log2(62) + 42 × 6 ≈ 257.9 bits, at least
/// the 256 bits of the 32 random bytes earlier secrets encoded, so the rule costs no strength. Every 43-character
/// base64url text is still accepted (`init?(text:)`), so secrets made before the rule keep working.
///
/// The store keeps only `hash` (SHA-256 of the 43 UTF-8 characters, exactly what a client sends in `hello.token`);
/// the daemon authenticates a session by `TokenSecret.hash(presented:)` and one lookup. `description` never shows
/// the secret. Value type, `Sendable`.
public struct TokenSecret: Hashable, Sendable, CustomStringConvertible {
    /// The 43-character text a client presents.
    public let text: String

    /// The length of every secret's text.
    public static let textLength = 43

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The characters a new secret may start with: the alphabet without `-` and `_`.
    static let firstCharacters = Array(alphabet.prefix(62))

    /// A new secret from the system's cryptographically secure generator.
    public static func generate() -> TokenSecret {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new secret drawn from `generator`: the first character uniformly from `firstCharacters`, the other 42
    /// uniformly from the whole alphabet. Tests pass a seeded generator; production uses `generate()`.
    static func generate(using generator: inout some RandomNumberGenerator) -> TokenSecret {
        var output: [UInt8] = []
        output.reserveCapacity(textLength)
        // `randomElement(using:)` is uniform (no modulo bias).
        output.append(firstCharacters.randomElement(using: &generator) ?? UInt8(ascii: "A"))
        for _ in 1..<textLength {
            output.append(alphabet.randomElement(using: &generator) ?? UInt8(ascii: "A"))
        }
        return TokenSecret(unchecked: String(decoding: output, as: UTF8.self))
    }

    /// Accepts text that has a secret's shape (43 base64url characters), after trimming surrounding whitespace.
    /// Returns nil for anything else.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count == Self.textLength, trimmed.utf8.allSatisfy(Self.alphabet.contains) else {
            return nil
        }
        self.text = trimmed
    }

    private init(unchecked text: String) { self.text = text }

    /// SHA-256 of the text: what the store keeps.
    public var hash: [UInt8] { Self.hash(presented: text) }

    /// SHA-256 of whatever a client presented, for the token lookup (`LeagueStorage.token(secretHash:)`).
    public static func hash(presented: String) -> [UInt8] { Array(SHA256.hash(data: Array(presented.utf8))) }

    public var description: String { "TokenSecret(<redacted>)" }
}
