/// A JSON value goal-client prints for `--json`: compact, keys in the order given, strings escaped so the output
/// is safe on a terminal too (`TerminalText.escapeJSON`). Value type, `Sendable`.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case uint(UInt64)
    case double(Double, decimals: Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// An object with keys in this order.
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    /// One line of compact JSON.
    var text: String {
        var out = ""
        write(to: &out)
        return TerminalText.escapeJSON(out)
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .int(let value): out += String(value)
        case .uint(let value): out += String(value)
        case .double(let value, let decimals): out += JSONValue.fixed(value, decimals: decimals)
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
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
