public import Foundation

/// Reads a UUID's canonical textual form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`: exactly 36 bytes, dashes at
/// offsets 8, 13, 18 and 23, hex digits in either case everywhere else; nothing else is accepted (no braces, no
/// whitespace, no signs).
///
/// Written by hand because Foundation's `UUID(uuidString:)` goes through `sscanf` (slow, and it takes `+` or a
/// space where a hex digit belongs). Stateless, pure functions, safe from any thread.
public enum UUIDText {
    /// Parses the canonical form from UTF-8 bytes; nil when the bytes are anything else.
    /// - Parameter lowercaseOnly: Also refuse uppercase hex digits (the exact form goald writes; its frame reader
    ///   accepts only that, so the frames it reads are byte for byte the writer's).
    public static func parse(_ utf8: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool = false) -> UUID? {
        let dash = UInt8(ascii: "-")
        guard utf8.count == 36, utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else {
            return nil
        }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var index = 0
            for offset in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                let high = nibble(utf8[index], lowercaseOnly: lowercaseOnly)
                let low = nibble(utf8[index + 1], lowercaseOnly: lowercaseOnly)
                guard high | low < 16 else { return false }
                out[offset] = high << 4 | low
                index += 2
            }
            return true
        }
        return valid ? UUID(uuid: value) : nil
    }

    /// Parses the canonical form from text; nil when the text is anything else.
    public static func parse(_ text: String) -> UUID? {
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ parse($0) }) { return parsed }
        return Array(text.utf8).withUnsafeBufferPointer { parse($0) }
    }

    /// The lowercase canonical form (`6d1f0c2a-5b3e-4f47-9a8b-1c2d3e4f5a6b`), written straight into the string's
    /// storage: `UUID.uuidString` formats through `snprintf` and `lowercased()` copies again, which showed as ~4 % of
    /// goald's CPU under `contention` (the SQLite writer names every row it writes by its id).
    public static func lowercase(_ uuid: UUID) -> String {
        String(unsafeUninitializedCapacity: length) { out in
            writeLowercase(uuid, into: out)
            return length
        }
    }

    /// The length of the canonical form in bytes.
    public static let length = 36

    /// Writes the lowercase canonical form into the first `length` bytes of `out` (the wire's encoder writes it
    /// into its frame with this, the same digits as `lowercase`).
    /// - Precondition: `out.count >= length`.
    public static func writeLowercase(_ uuid: UUID, into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count >= length, "a UUID needs \(length) bytes")
        withUnsafeBytes(of: uuid.uuid) { raw in
            var index = 0
            for offset in 0..<16 {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    out[index] = UInt8(ascii: "-")
                    index += 1
                }
                out[index] = hexDigit(raw[offset] >> 4)
                out[index + 1] = hexDigit(raw[offset] & 0x0F)
                index += 2
            }
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ (value &- 10)
    }

    /// The value of a hex digit (uppercase too unless `lowercaseOnly`), or 0xFF for any other byte.
    @inline(__always)
    private static func nibble(_ c: UInt8, lowercaseOnly: Bool) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: c &- UInt8(ascii: "A") &+ 10
        default: 0xFF
        }
    }
}
