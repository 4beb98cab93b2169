import Crypto
import Foundation

/// An access token's secret: 32 random bytes (256 bits) written as unpadded base64url, 43 characters.
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

    /// A new secret from the system's cryptographically secure generator.
    public static func generate() -> TokenSecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return TokenSecret(unchecked: encode(bytes))
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

    private static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(textLength)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3f)]) }
            index += 3
        }
        // 32 bytes = 10 groups of 3 + 2 bytes: 3 more characters, no padding.
        let rest = bytes.count - index
        if rest == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            for shift in [18, 12, 6] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3f)]) }
        } else if rest == 1 {
            let chunk = UInt32(bytes[index]) << 16
            for shift in [18, 12] { output.append(alphabet[Int(chunk >> UInt32(shift) & 0x3f)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
