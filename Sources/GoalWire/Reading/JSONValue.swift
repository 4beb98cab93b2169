/// A parsed JSON document, as GoalWire's readers see it: numbers keep their text so an integer field can refuse a
/// fraction or an exponent (`10.0`, `1e1`) that a floating-point parse would have turned into 10.
///
/// Objects keep their members in document order; a duplicate key is found from the end, so the last one wins.
/// Value type, `Sendable`; built by `JSONParser`, read through `JSONReader`.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// The number's text exactly as written (already checked against RFC 8259's number grammar).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// "a string", "a number" … as an error message names what it found.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
