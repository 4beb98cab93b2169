/// A JSON document built in code and written by GoalWire's one JSON writer (`JSONWriter`): what goal-client prints
/// for `--json` and keeps in its config file, goal-load's `--json` report, `goald token list --json`. Compact
/// (`json`) or indented (`indentedJSON`), keys in the order given (`sortedObject` sorts them), strings escaped as
/// every GoalWire message is (`"`, `\` and U+0000…U+001F only). Value type, `Sendable`; equal when the text is.
public enum JSONDocument: Sendable, Equatable {
    case string(String)
    case int(Int)
    case uint(UInt64)
    /// A number with exactly `decimals` digits after the point (a rating shown as `6.67`); 0 when not finite.
    case double(Double, decimals: Int)
    /// A number in the shortest form that reads back as the same `Double` (`3`, `0.1`, `1e-07`: the form Foundation's
    /// `JSONEncoder` writes); `null` when not finite.
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONDocument])
    /// An object with keys in this order.
    case object([(String, JSONDocument)])

    public static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool { lhs.json == rhs.json }

    /// An object with its keys sorted by their UTF-8 bytes (the order of `JSONEncoder`'s `.sortedKeys`).
    public static func sortedObject(_ members: [String: JSONDocument]) -> JSONDocument {
        .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }

    /// The document as one line of compact JSON.
    public var json: String {
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The document over several lines, for a person and a machine alike: each array element and object member on
    /// a line of its own, indented by two spaces per level, `"key" : value` (the layout of `JSONEncoder`'s
    /// `.prettyPrinted`); empty arrays and objects stay `[]` and `{}`. No trailing newline.
    public var indentedJSON: String {
        var writer = JSONWriter(capacity: 256)
        writeIndented(to: &writer, level: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func writeIndented(to writer: inout JSONWriter, level: Int) {
        switch self {
        case .array(let values) where !values.isEmpty:
            writer.byte(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                Self.newline(&writer, level: level + 1)
                value.writeIndented(to: &writer, level: level + 1)
            }
            Self.newline(&writer, level: level)
            writer.byte(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            writer.byte(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                Self.newline(&writer, level: level + 1)
                writer.string(key)
                writer.raw(" : ")
                value.writeIndented(to: &writer, level: level + 1)
            }
            Self.newline(&writer, level: level)
            writer.byte(UInt8(ascii: "}"))
        default:
            write(to: &writer)
        }
    }

    private static func newline(_ writer: inout JSONWriter, level: Int) {
        writer.byte(UInt8(ascii: "\n"))
        writer.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private func write(to writer: inout JSONWriter) {
        switch self {
        case .string(let value): writer.string(value)
        case .int(let value): writer.integer(value)
        case .uint(let value): writer.integer(value)
        case .double(let value, let decimals):
            writer.bytes.append(contentsOf: Self.fixed(value, decimals: decimals).utf8)
        case .number(let value): writer.bytes.append(contentsOf: Self.shortest(value).utf8)
        case .bool(let value): writer.bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: writer.bytes.append(contentsOf: "null".utf8)
        case .array(let values):
            writer.byte(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                value.write(to: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        case .object(let members):
            writer.byte(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.string(key)
                writer.byte(UInt8(ascii: ":"))
                value.write(to: &writer)
            }
            writer.byte(UInt8(ascii: "}"))
        }
    }

    /// `value` in the shortest form that reads back as itself, without a `.0` for a whole number; `null` when not
    /// finite (JSON has no NaN or infinity).
    static func shortest(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = value.description  // Swift's shortest round-trip form: "3.0", "0.1", "1e-07", "1e+16"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `value` with exactly `decimals` digits after the point, without Foundation's locale.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
