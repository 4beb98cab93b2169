import Foundation

/// The decoding core shared by both message directions: size check, UTF-8 check, `JSONDecoder`, and the
/// translation of every failure into a `WireDecodingError` that names the field.
enum WireJSON {
    /// Decodes `T` from a JSON text message.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], limit: Int) throws(WireDecodingError) -> T {
        guard bytes.count <= limit else { throw .tooLarge(size: bytes.count, limit: limit) }
        guard isValidUTF8(bytes) else { throw .invalidUTF8 }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let failure as MessageDecodingFailure {
            switch failure {
            case .unknownType(let name, let known): throw .unknownType(name, known: known)
            case .inMessage(let type, let error): throw map(error, root: type)
            }
        } catch let error as DecodingError {
            throw map(error, root: "message")
        } catch {
            throw .invalidJSON
        }
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

    /// Translates a `DecodingError` into a `WireDecodingError` rooted at `root` (the message type).
    static func map(_ error: DecodingError, root: String) -> WireDecodingError {
        switch error {
        case .typeMismatch(let type, let context):
            return .typeMismatch(
                path(root, context.codingPath),
                expected: describe(type),
                found: found(in: context.debugDescription)
            )
        case .valueNotFound(let type, let context):
            return .typeMismatch(path(root, context.codingPath), expected: describe(type), found: "null")
        case .keyNotFound(let key, let context):
            return .missingField(path(root, context.codingPath + [key]))
        case .dataCorrupted(let context):
            if context.debugDescription.hasPrefix("expected") {
                return .invalidValue(path(root, context.codingPath), context.debugDescription)
            }
            return context.codingPath.isEmpty
                ? .invalidJSON : .invalidValue(path(root, context.codingPath), context.debugDescription)
        @unknown default:
            return .invalidJSON
        }
    }

    /// `root.key[3].key`
    static func path(_ root: String, _ codingPath: [any CodingKey]) -> String {
        var text = root
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += "." + key.stringValue
            }
        }
        return text
    }

    /// "an integer", "a string" … for the Swift type a decoder asked for.
    static func describe(_ type: Any.Type) -> String {
        if let integer = type as? any FixedWidthInteger.Type {
            return integer.isSigned ? "an integer" : "a non-negative integer"
        }
        if type == String.self { return "a string" }
        if type == Bool.self { return "a boolean" }
        if type == Double.self || type == Float.self { return "a number" }
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
        return "a value of type \(name)"
    }

    /// The JSON type named in Foundation's "Expected to decode X but found Y instead." text.
    static func found(in debugDescription: String) -> String? {
        guard let start = debugDescription.range(of: "but found "),
            let end = debugDescription.range(of: " instead", range: start.upperBound..<debugDescription.endIndex)
        else { return nil }
        switch debugDescription[start.upperBound..<end.lowerBound] {
        case "a string", "string": return "a string"
        case "number", "a number": return "a number"
        case "bool", "a bool", "boolean": return "a boolean"
        case "a dictionary", "dictionary": return "an object"
        case "an array", "array": return "an array"
        case "null", "null value": return "null"
        case let other: return String(other)
        }
    }
}

/// Thrown by the message decoders so the error can name the message type (or the unknown type).
enum MessageDecodingFailure: Error {
    case unknownType(String, known: [String])
    case inMessage(String, DecodingError)
}

/// A string coding key for the message decoders.
struct MessageKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == MessageKey {
    /// Decodes an integer with a precise error for fractions, signs and overflow (see GoalModel's twin).
    func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type, _ key: String) throws -> T {
        do {
            return try decode(T.self, forKey: MessageKey(key))
        } catch let error as DecodingError {
            throw error
        } catch {
            // Foundation reports a number that does not fit the type with an internal error and no path.
            let found = try? decode(Double.self, forKey: MessageKey(key))
            let expected = T.isSigned ? "expected an integer" : "expected a non-negative integer"
            let detail: String =
                if let found {
                    found.rounded() != found
                        ? "; found a fraction" : (!T.isSigned && found < 0 ? "; found a negative number" : "; found a number out of range")
                } else {
                    " of at most 64 bits"
                }
            throw DecodingError.dataCorruptedError(forKey: MessageKey(key), in: self, debugDescription: expected + detail)
        }
    }

    /// `integer` for a key that may be absent.
    func optionalInteger<T: FixedWidthInteger & Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        contains(MessageKey(key)) ? try integer(T.self, key) : nil
    }

    func value<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        try decode(T.self, forKey: MessageKey(key))
    }

    func optionalValue<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try decodeIfPresent(T.self, forKey: MessageKey(key))
    }

    /// A string that must be one of `T`'s raw values.
    func enumeration<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ key: String) throws -> T
    where T.RawValue == String {
        let raw = try decode(String.self, forKey: MessageKey(key))
        guard let value = T(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                forKey: MessageKey(key),
                in: self,
                debugDescription: "expected one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    + "; found \"\(raw.prefix(64))\""
            )
        }
        return value
    }
}

extension Decoder {
    /// Reads the `type` discriminator, then decodes the payload, tagging any failure with the type's name.
    func decodeMessage<T>(
        known: [String],
        _ body: (String, KeyedDecodingContainer<MessageKey>) throws -> T
    ) throws -> T {
        let container = try self.container(keyedBy: MessageKey.self)
        let type = try container.decode(String.self, forKey: MessageKey("type"))
        guard known.contains(type) else { throw MessageDecodingFailure.unknownType(type, known: known) }
        do {
            return try body(type, container)
        } catch let error as DecodingError {
            throw MessageDecodingFailure.inMessage(type, error)
        }
    }
}
