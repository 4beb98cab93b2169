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
