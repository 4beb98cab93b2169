/// An `application/x-www-form-urlencoded` body as Rack reads it: `key=value` pairs joined by `&`, `+` for a space,
/// `%XX` escapes; a list is a repeated key (`home_player_ids[]=a&home_player_ids[]=b`). Value type.
///
/// Hand-written (about 40 lines) because Foundation's `URLComponents` neither turns `+` into a space nor reports a
/// bad escape or bytes that are not UTF-8: it repairs them, and a name must never be stored repaired.
struct RESTFormBody {
    private let pairs: [(key: String, value: String)]

    /// Parses a whole body; a bad `%` escape or a key or value that is not UTF-8 is a `RESTBodyError`.
    init(_ bytes: [UInt8]) throws(RESTBodyError) {
        var pairs: [(key: String, value: String)] = []
        for piece in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
            let key = try Self.decode(piece[piece.startIndex..<equals], what: "a key")
            let rawValue = equals == piece.endIndex ? piece[equals...] : piece[piece.index(after: equals)...]
            pairs.append((key, try Self.decode(rawValue, what: "the value of \(key)")))
        }
        self.pairs = pairs
    }

    /// The last value given for `key` (Rack's rule for a repeated scalar).
    func last(_ key: String) throws(RESTBodyError) -> String {
        guard let pair = pairs.last(where: { $0.key == key }) else { throw RESTBodyError("\(key) is missing") }
        return pair.value
    }

    /// Every non-empty value of `key[]` (or of a plain repeated `key`), in order. Rails cannot send an empty list:
    /// `key[]=` stands for one, so empty values are left out.
    func list(_ key: String) throws(RESTBodyError) -> [String] {
        let named = pairs.filter { $0.key == key + "[]" || $0.key == key }
        guard !named.isEmpty else { throw RESTBodyError("\(key)[] is missing") }
        return named.map(\.value).filter { !$0.isEmpty }
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, what: String) throws(RESTBodyError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { throw RESTBodyError("\(what) has a bad %-escape (a % must be followed by two hex digits)") }
                decoded.append(high << 4 | low)
                index += 2
            default:
                decoded.append(byte)
            }
            index += 1
        }
        if let offset = RESTBodyText.firstInvalidUTF8Offset(decoded) {
            throw RESTBodyError("\(what) is not valid UTF-8 (byte \(offset) once decoded)")
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
