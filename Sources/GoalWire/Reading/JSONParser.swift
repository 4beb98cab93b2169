/// A strict RFC 8259 parser from UTF-8 bytes to a `JSONValue`: no comments, no trailing commas, no leading zeros,
/// no lone surrogates, no raw control characters in strings, nothing after the value but whitespace, and at most
/// `maxDepth` nested arrays and objects (so hostile input cannot exhaust the stack).
///
/// The bytes must already be valid UTF-8 (`WireJSON.isValidUTF8`). A value type used by one caller at a time.
struct JSONParser {
    /// Why parsing stopped; callers report every case as "not valid JSON".
    struct Malformed: Error {}

    /// The deepest nesting accepted (Foundation's `JSONDecoder` allows 512 as well).
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8]) throws(Malformed) -> JSONValue {
        let result: Result<JSONValue, Malformed> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(Malformed) {
                parser.skipWhitespace()
                let value = try parser.value()
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw Malformed() }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Malformed) {
        guard current == byte else { throw Malformed() }
        index += 1
    }

    private mutating func literal(_ text: StaticString) throws(Malformed) {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Malformed() }
        let matches = text.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw Malformed() }
        index += count
    }

    private mutating func value() throws(Malformed) -> JSONValue {
        guard let byte = current else { throw Malformed() }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw Malformed()
        }
    }

    private mutating func enter() throws(Malformed) {
        depth += 1
        guard depth <= JSONParser.maxDepth else { throw Malformed() }
    }

    private mutating func object() throws(Malformed) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Malformed() }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array() throws(Malformed) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as its text.
    private mutating func number() throws(Malformed) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw Malformed() }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, isDigit(digit) else { throw Malformed() }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else { throw Malformed() }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    /// A string literal starting at `"`; escapes decoded, surrogate pairs joined, lone surrogates refused.
    private mutating func string() throws(Malformed) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Malformed() }
            index += 1
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw Malformed() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            default:
                guard byte >= 0x20 else { throw Malformed() }
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Malformed) {
        guard let byte = current else { throw Malformed() }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hex4())
            if (0xD800...0xDBFF).contains(scalar) {
                try literal("\\u")
                let low = UInt32(try hex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw Malformed() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw Malformed()
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw Malformed()
        }
    }

    private mutating func hex4() throws(Malformed) -> UInt16 {
        guard bytes.count - index >= 4 else { throw Malformed() }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            value = value << 4 | UInt16(nibble)
            index += 1
        }
        return value
    }
}
