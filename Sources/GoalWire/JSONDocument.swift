/// A JSON document built in code and written by GoalWire's one JSON writer (`JSONWriter`): what goal-client prints
/// for `--json` and keeps in its config file. Compact, keys in the order given, strings escaped as every GoalWire
/// message is (`"`, `\` and U+0000…U+001F only). Value type, `Sendable`; equal when the text is.
public enum JSONDocument: Sendable, Equatable {
    case string(String)
    case int(Int)
    case uint(UInt64)
    /// A number with exactly `decimals` digits after the point (a rating shown as `6.67`); 0 when not finite.
    case double(Double, decimals: Int)
    case bool(Bool)
    case null
    case array([JSONDocument])
    /// An object with keys in this order.
    case object([(String, JSONDocument)])

    public static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool { lhs.json == rhs.json }

    /// The document as one line of compact JSON.
    public var json: String {
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func write(to writer: inout JSONWriter) {
        switch self {
        case .string(let value): writer.string(value)
        case .int(let value): writer.integer(value)
        case .uint(let value): writer.integer(value)
        case .double(let value, let decimals):
            writer.bytes.append(contentsOf: Self.fixed(value, decimals: decimals).utf8)
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
