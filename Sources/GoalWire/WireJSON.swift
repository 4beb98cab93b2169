/// The decoding core shared by both message directions: size check, UTF-8 check, the strict parse
/// (`JSONParser`), and the message envelope (an object with a known `type`).
enum WireJSON {
    /// Parses a JSON text message into a value, checking size and UTF-8 first.
    static func parse(_ bytes: [UInt8], limit: Int) throws(WireDecodingError) -> JSONValue {
        guard bytes.count <= limit else { throw .tooLarge(size: bytes.count, limit: limit) }
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON
        }
    }

    /// Parses a message and reads its `type`, which must be one of `known`.
    /// - Returns: the type and the message object, whose path is the type (`mutate`), so errors read
    ///   `mutate.home_goals: …`.
    static func envelope(
        _ bytes: [UInt8],
        limit: Int,
        known: [String]
    ) throws(WireDecodingError) -> (type: String, object: JSONObject) {
        let root = try JSONObject(try parse(bytes, limit: limit), at: "message")
        let type = try root.string("type")
        guard known.contains(type) else { throw .unknownType(type, known: known) }
        return (type, JSONObject(members: root.members, path: type))
    }

    /// True when `bytes` is well-formed UTF-8 (ASCII fast path first).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count, buffer[index] < 0x80 { index += 1 }
            if index == buffer.count { return true }
            return String(validating: UnsafeBufferPointer(rebasing: buffer[index...]), as: UTF8.self) != nil
        }
    }
}
