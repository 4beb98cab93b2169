/// Typed reads of a parsed JSON document, each failure a `WireDecodingError` that names the field's path
/// (`mutate.home_players[1]`) and what was expected.
///
/// Integers are integers: a number with a fraction (`10.0`, `-0.0`) or an exponent (`1e1`) is refused at its
/// field, as are negative values for unsigned fields and values beyond the type's range; `-0` reads as 0.
/// Stateless functions.
enum JSONReader {
    /// Reads an integer of type `T`; see the type's documentation for what is refused.
    static func integer<T: FixedWidthInteger>(_ value: JSONValue, at path: String) throws(WireDecodingError) -> T {
        let expected = T.isSigned ? "an integer" : "a non-negative integer"
        guard case .number(let text) = value else {
            throw .typeMismatch(path, expected: expected, found: value.kindDescription)
        }
        if text.utf8.contains(UInt8(ascii: ".")) {
            throw .invalidValue(path, "expected \(expected); found a fraction")
        }
        if text.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            throw .invalidValue(path, "expected \(expected); found a number with an exponent")
        }
        if !T.isSigned && text.hasPrefix("-") && text != "-0" {
            throw .invalidValue(path, "expected \(expected); found a negative number")
        }
        guard let integer = T(text == "-0" ? "0" : text, radix: 10) else {
            throw .invalidValue(path, "expected \(expected); found a number out of range")
        }
        return integer
    }

    static func string(_ value: JSONValue, at path: String) throws(WireDecodingError) -> String {
        guard case .string(let text) = value else {
            throw .typeMismatch(path, expected: "a string", found: value.kindDescription)
        }
        return text
    }

    static func bool(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Bool {
        guard case .bool(let flag) = value else {
            throw .typeMismatch(path, expected: "a boolean", found: value.kindDescription)
        }
        return flag
    }

    static func array(_ value: JSONValue, at path: String) throws(WireDecodingError) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw .typeMismatch(path, expected: "an array", found: value.kindDescription)
        }
        return elements
    }

    /// Reads an array, each element with `element` at `path[index]`.
    static func array<T>(
        _ value: JSONValue,
        at path: String,
        _ element: (JSONValue, String) throws(WireDecodingError) -> T
    ) throws(WireDecodingError) -> [T] {
        let elements = try array(value, at: path)
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            result.append(try element(item, "\(path)[\(index)]"))
        }
        return result
    }

    /// A string that must be the raw value of one of `T`'s cases.
    static func enumeration<T: RawRepresentable & CaseIterable>(
        _ value: JSONValue,
        at path: String
    ) throws(WireDecodingError) -> T where T.RawValue == String {
        let raw = try string(value, at: path)
        guard let result = T(rawValue: raw) else {
            throw .invalidValue(path, oneOf(T.allCases.map(\.rawValue), found: raw))
        }
        return result
    }

    /// `expected one of "a", "b"; found "c"`
    static func oneOf(_ names: [String], found: String) -> String {
        "expected one of " + names.map { "\"\($0)\"" }.joined(separator: ", ") + "; found \"\(found.prefix(64))\""
    }
}

/// One JSON object being read, with the path of the object itself (`rejected`, `changeset.changes[2]`).
/// A value type used by one reader at a time.
struct JSONObject {
    let members: [(key: String, value: JSONValue)]
    let path: String

    init(members: [(key: String, value: JSONValue)], path: String) {
        self.members = members
        self.path = path
    }

    /// The object in `value`, or a type mismatch at `path`.
    init(_ value: JSONValue, at path: String) throws(WireDecodingError) {
        guard case .object(let members) = value else {
            throw .typeMismatch(path, expected: "an object", found: value.kindDescription)
        }
        self.members = members
        self.path = path
    }

    /// The path of one member: `path.key`.
    func path(_ key: String) -> String { path + "." + key }

    /// The member's value, absent → nil (a duplicate key: the last one).
    func member(_ key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    func contains(_ key: String) -> Bool { member(key) != nil }

    /// The member's value; absent → `missingField`.
    func required(_ key: String) throws(WireDecodingError) -> JSONValue {
        guard let value = member(key) else { throw .missingField(path(key)) }
        return value
    }

    /// The member's value, or nil when it is absent or `null`.
    func optional(_ key: String) -> JSONValue? {
        guard let value = member(key) else { return nil }
        if case .null = value { return nil }
        return value
    }

    func string(_ key: String) throws(WireDecodingError) -> String {
        try JSONReader.string(try required(key), at: path(key))
    }

    /// A string member that may be absent or `null`.
    func optionalString(_ key: String) throws(WireDecodingError) -> String? {
        guard let value = optional(key) else { return nil }
        return try JSONReader.string(value, at: path(key))
    }

    func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(WireDecodingError) -> T {
        try JSONReader.integer(try required(key), at: path(key))
    }

    /// An integer member that may be absent (`null` is a type error, not "absent").
    func optionalInteger<T: FixedWidthInteger>(_ key: String, as type: T.Type = T.self) throws(WireDecodingError) -> T?
    {
        guard let value = member(key) else { return nil }
        return try JSONReader.integer(value, at: path(key))
    }

    func object(_ key: String) throws(WireDecodingError) -> JSONObject {
        try JSONObject(try required(key), at: path(key))
    }

    func enumeration<T: RawRepresentable & CaseIterable>(
        _ key: String,
        as type: T.Type = T.self
    ) throws(WireDecodingError) -> T
    where T.RawValue == String {
        try JSONReader.enumeration(try required(key), at: path(key))
    }

    /// A string discriminator (`type`, `kind`, `op`, `outcome`) that must be one of `names`.
    func discriminator(_ key: String, among names: [String]) throws(WireDecodingError) -> String {
        let name = try string(key)
        guard names.contains(name) else { throw .invalidValue(path(key), JSONReader.oneOf(names, found: name)) }
        return name
    }

    /// Reads a required member with `read`, handing it the member's value and path.
    func read<T>(
        _ key: String,
        _ read: (JSONValue, String) throws(WireDecodingError) -> T
    ) throws(WireDecodingError) -> T {
        try read(try required(key), path(key))
    }

    /// Reads a member that may be absent or `null` with `read`.
    func readIfPresent<T>(
        _ key: String,
        _ read: (JSONValue, String) throws(WireDecodingError) -> T
    ) throws(WireDecodingError) -> T? {
        guard let value = optional(key) else { return nil }
        return try read(value, path(key))
    }
}
