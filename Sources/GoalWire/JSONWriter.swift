import Foundation
import GoalModel

/// Writes JSON by hand into a byte buffer: the encoder of every outbound frame.
///
/// Output is canonical when the caller writes object members in sorted key order (all writers in this module
/// do, except message headers that put `type` first): no whitespace, integers in plain decimal, strings as raw
/// UTF-8 with only `"`, `\` and U+0000…U+001F escaped (`\b \t \n \f \r`, otherwise `\u00xx` lowercase) — the
/// string rules of RFC 8785. Not thread-safe by itself; a value type used by one caller at a time.
struct JSONWriter {
    /// The bytes written so far.
    var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends ASCII text verbatim (keys, punctuation).
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte verbatim.
    @inline(__always)
    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Appends a JSON string literal with canonical escaping.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let c = utf8[index]
                if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                    if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                    escape(c)
                    start = index + 1
                }
                index += 1
            }
            if start < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ c: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch c {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(JSONWriter.hexDigits[Int(c >> 4)])
            bytes.append(JSONWriter.hexDigits[Int(c & 0x0f)])
        }
    }

    /// Appends an unsigned integer in decimal.
    mutating func integer(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits = 0
        var rest = value
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        rest = value
        var index = start + digits - 1
        while rest > 0 {
            bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Appends a signed integer in decimal.
    mutating func integer(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            integer(value.magnitude)
        } else {
            integer(UInt64(value))
        }
    }

    /// Appends a signed integer in decimal.
    @inline(__always)
    mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// Appends a UUID as a quoted lowercase canonical string (8-4-4-4-12).
    mutating func uuid(_ uuid: UUID) {
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: UUIDText.length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            UUIDText.writeLowercase(uuid, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends bytes as a quoted lowercase hex string.
    mutating func hexString(_ data: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for b in data {
            bytes.append(JSONWriter.hexDigits[Int(b >> 4)])
            bytes.append(JSONWriter.hexDigits[Int(b & 0x0f)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a boolean literal.
    mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a JSON array of strings.
    mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
