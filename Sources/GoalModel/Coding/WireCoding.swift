/// Helpers shared by the `Codable` conformances of the model types: one string-keyed coding key, and decoding of
/// closed string enums with an error that lists what was expected.
///
/// Decoding validates shape only (JSON types, UUID and digest syntax, required keys, known enum values); domain
/// rules such as 0…999 goals or name rules stay with the conflict engine.
struct WireKey: CodingKey, Hashable, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Decodes a string that must be the raw value of one of `T`'s cases.
    func decodeWireEnum<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let container = try singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = T(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    + "; found \"\(raw.prefix(64))\""
            )
        }
        return value
    }
}

extension KeyedDecodingContainer where Key == WireKey {
    /// Decodes a string discriminator (`type`, `kind`, `op`) that must be one of `names`.
    func decodeDiscriminator(_ key: String, among names: [String]) throws -> String {
        let name = try decode(String.self, forKey: WireKey(key))
        guard names.contains(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: WireKey(key),
                in: self,
                debugDescription: "expected one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                    + "; found \"\(name.prefix(64))\""
            )
        }
        return name
    }
}

/// Describes why a JSON number could not become an integer of type `T` (fraction, sign, magnitude).
func integerMismatchDescription<T: FixedWidthInteger>(_ type: T.Type, found: Double?) -> String {
    let expected = T.isSigned ? "expected an integer" : "expected a non-negative integer"
    guard let found else { return expected + " of at most 64 bits" }
    if found.rounded() != found { return expected + "; found a fraction" }
    if !T.isSigned && found < 0 { return expected + "; found a negative number" }
    return expected + "; found a number out of range"
}

extension KeyedDecodingContainer where Key == WireKey {
    /// Decodes an integer; a fraction, a negative value for an unsigned type or an out-of-range number becomes
    /// a `dataCorrupted` error at this key (Foundation reports those with an internal error and no path).
    func decodeInteger<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: WireKey) throws -> T {
        do {
            return try decode(T.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            // Foundation reports a number that does not fit the type with an internal error and no path.
            let found = try? decode(Double.self, forKey: key)
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: integerMismatchDescription(T.self, found: found)
            )
        }
    }

    /// `decodeInteger` for a key that may be absent.
    func decodeIntegerIfPresent<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: WireKey) throws -> T? {
        contains(key) ? try decodeInteger(T.self, forKey: key) : nil
    }
}

extension SingleValueDecodingContainer {
    /// Decodes an integer with the same precise errors as the keyed `decodeInteger`.
    func decodeInteger<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        do {
            return try decode(T.self)
        } catch let error as DecodingError {
            throw error
        } catch {
            // Foundation reports a number that does not fit the type with an internal error and no path.
            let found = try? decode(Double.self)
            throw DecodingError.dataCorruptedError(
                in: self,
                debugDescription: integerMismatchDescription(T.self, found: found)
            )
        }
    }
}
