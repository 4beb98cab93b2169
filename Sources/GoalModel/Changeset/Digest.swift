/// A SHA-256 value of the chained log digest: d_R = SHA-256(d_R−1 ‖ payload_R), d_0 = 32 zero bytes.
///
/// GoalModel only carries it; GoalWire computes it over each changeset's canonical payload. Comparing one
/// digest proves two replicas saw the same history. Value type, `Sendable`.
public struct Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex digits (either case); nil otherwise.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < 64 {
            guard let high = Digest.nibble(utf8[index]), let low = Digest.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// The digest of the empty history (revision 0).
    public static let genesis = Digest(bytes: [UInt8](repeating: 0, count: 32))!

    /// Lowercase hex, 64 digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first 8 hex digits, as `tail` prints it.
    public var short: String { String(hex.prefix(8)) }

    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
