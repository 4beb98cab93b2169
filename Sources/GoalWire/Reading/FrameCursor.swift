import Foundation
import GoalModel

/// A forward-only reader of one frame's bytes for `ChangesetFrameReader`: every read matches exactly what
/// goald's writers write (`JSONWriter`) and answers nil (or false) at the first byte that differs, so the caller can
/// hand the frame to the strict parser instead. It never throws and never traps.
///
/// What it accepts is a subset of what the strict path accepts, read to the same values: integers in plain
/// decimal without leading zeros (and no `-0`), strings without escapes or control characters (UTF-8 checked),
/// UUIDs in their canonical form with lowercase hex digits, digests as 64 lowercase hex digits. A value type over borrowed bytes, used by one
/// reader for the duration of one `withUnsafeBufferPointer` call.
struct FrameCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// True when every byte has been read.
    var atEnd: Bool { index == bytes.count }

    /// True when the next bytes are `text` (ASCII); they are consumed.
    @inline(__always)
    mutating func literal(_ text: StaticString) -> Bool {
        guard startsWith(text) else { return false }
        index += text.utf8CodeUnitCount
        return true
    }

    /// True when the next bytes are `text` (ASCII); nothing is consumed.
    @inline(__always)
    func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return text.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
    }

    /// True when the next byte is `value`; it is consumed.
    @inline(__always)
    mutating func byte(_ value: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == value else { return false }
        index += 1
        return true
    }

    /// `0` or `[1-9][0-9]*` within `UInt64`.
    mutating func unsigned() -> UInt64? {
        guard index < bytes.count, let first = digit(bytes[index]) else { return nil }
        index += 1
        if first == 0 {
            // A leading zero: "0" alone, never "01" (the strict parser refuses that text).
            if index < bytes.count, digit(bytes[index]) != nil { return nil }
            return 0
        }
        var value = UInt64(first)
        while index < bytes.count, let next = digit(bytes[index]) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(next))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return value
    }

    /// An unsigned integer, or `-` and a non-zero one, within `Int64` (`-0` is left to the strict path).
    mutating func signed() -> Int64? {
        if byte(UInt8(ascii: "-")) {
            guard let magnitude = unsigned(), magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard let magnitude = unsigned(), magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// A signed integer within `Int`.
    mutating func int() -> Int? { signed().flatMap { Int(exactly: $0) } }

    /// A string literal without escapes and without control characters; its bytes must be valid UTF-8.
    mutating func string() -> String? {
        guard byte(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var ascii = true
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            guard c >= 0x20, c != UInt8(ascii: "\\") else { return nil }
            if c >= 0x80 { ascii = false }
            index += 1
        }
        return nil
    }

    /// A quoted UUID exactly as `JSONWriter.uuid` writes it: the canonical form (`UUIDText`) with lowercase hex
    /// digits. An uppercase digit, which the strict path reads to the same UUID, answers nil: every frame this
    /// cursor accepts is then byte for byte the writer's, which `ChangesetFrame.Payload` relies on.
    mutating func uuid() -> UUID? {
        let length = UUIDText.length
        guard bytes.count - index >= length + 2, bytes[index] == UInt8(ascii: "\""),
            bytes[index + length + 1] == UInt8(ascii: "\""),
            let uuid = UUIDText.parse(
                UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(index + 1 + length)]),
                lowercaseOnly: true
            )
        else { return nil }
        index += length + 2
        return uuid
    }

    /// A quoted digest: 64 lowercase hex digits.
    mutating func digest() -> Digest? {
        guard bytes.count - index >= 66, bytes[index] == UInt8(ascii: "\""),
            bytes[index + 65] == UInt8(ascii: "\"")
        else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        for offset in 0..<32 {
            let high = nibble(bytes[index + 1 + 2 * offset])
            let low = nibble(bytes[index + 2 + 2 * offset])
            guard high | low < 16 else { return nil }
            out[offset] = high << 4 | low
        }
        index += 66
        return Digest(bytes: out)
    }

    @inline(__always)
    private func digit(_ c: UInt8) -> UInt8? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : nil
    }

    /// A lowercase hex digit's value, or 0xFF.
    @inline(__always)
    private func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        default: 0xFF
        }
    }

    /// The elements of an array whose `[` was just read, each read by `element`, up to and including its `]`; nil
    /// at the first element `element` refuses or a missing separator.
    static func elements<Element>(
        _ c: inout FrameCursor,
        _ element: (inout FrameCursor) -> Element?
    ) -> [Element]? {
        var elements: [Element] = []
        if c.byte(UInt8(ascii: "]")) { return elements }
        while true {
            guard let next = element(&c) else { return nil }
            elements.append(next)
            if c.byte(UInt8(ascii: ",")) { continue }
            return c.byte(UInt8(ascii: "]")) ? elements : nil
        }
    }
}
