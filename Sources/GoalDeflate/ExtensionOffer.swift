/// One entry of a `Sec-WebSocket-Extensions` header (RFC 6455 §9.1): an extension name and its parameters in the
/// order given, each with its value (a token, or a quoted string with its quotes and escapes removed) or none.
///
/// Hand-written because no listed library parses this header outside its own WebSocket stack (swift-websocket's
/// parser takes swift-http-types' fields and drops duplicate parameters, which RFC 7692 §7 says must fail an
/// offer). Value type, `Sendable`.
public struct ExtensionOffer: Sendable, Equatable {
    /// One `name[=value]` parameter.
    public struct Parameter: Sendable, Equatable {
        public let name: String
        public let value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The extension token, lowercased (tokens compare case-insensitively).
    public let name: String
    public let parameters: [Parameter]

    public init(name: String, parameters: [Parameter]) {
        self.name = name
        self.parameters = parameters
    }

    /// Every offer in the header's values, in order (several header lines concatenate as one list). Nil when the
    /// text is not a well-formed extension list; empty elements (`a, , b`) are skipped as RFC 9110 §5.6.1 allows.
    public static func parse(_ headerValues: [String]) -> [ExtensionOffer]? {
        var offers: [ExtensionOffer] = []
        for value in headerValues {
            guard let elements = split(Substring(value), on: ",") else { return nil }
            for element in elements {
                let trimmed = element.trimmingOptionalWhitespace()
                if trimmed.isEmpty { continue }
                guard let offer = parseOne(trimmed) else { return nil }
                offers.append(offer)
            }
        }
        return offers
    }

    private static func parseOne(_ text: Substring) -> ExtensionOffer? {
        guard let pieces = split(text, on: ";") else { return nil }
        let name = pieces[0].trimmingOptionalWhitespace()
        guard isToken(name) else { return nil }
        var parameters: [Parameter] = []
        for piece in pieces.dropFirst() {
            let parameter = piece.trimmingOptionalWhitespace()
            let nameAndValue = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let parameterName = nameAndValue[0].trimmingOptionalWhitespace()
            guard isToken(parameterName) else { return nil }
            var value: String?
            if nameAndValue.count == 2 {
                guard let parsed = parameterValue(nameAndValue[1].trimmingOptionalWhitespace()) else { return nil }
                value = parsed
            }
            parameters.append(Parameter(name: parameterName.lowercased(), value: value))
        }
        return ExtensionOffer(name: name.lowercased(), parameters: parameters)
    }

    /// A token as is, or a quoted string unquoted (RFC 6455 §9.1: its content must then be a token too).
    private static func parameterValue(_ text: Substring) -> String? {
        if text.first == "\"" {
            guard text.count >= 2, text.last == "\"" else { return nil }
            var content = ""
            var escaped = false
            for character in text.dropFirst().dropLast() {
                if escaped {
                    content.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return nil
                } else {
                    content.append(character)
                }
            }
            guard !escaped, isToken(Substring(content)) else { return nil }
            return content
        }
        return isToken(text) ? String(text) : nil
    }

    /// Splits on `separator` outside quoted strings; nil when a quoted string is left open.
    private static func split(_ text: Substring, on separator: Character) -> [Substring]? {
        var parts: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var quoted = false
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        guard !quoted else { return nil }
        parts.append(text[start..<text.endIndex])
        return parts
    }

    /// RFC 9110 §5.6.2 `token`: one or more tchar.
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (RFC 9110 OWS).
    fileprivate func trimmingOptionalWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
