/// How a write's body is encoded, read from its `Content-Type`: JSON (what the app sends) or a form
/// (`application/x-www-form-urlencoded`: what Goalbase's own request specs and `curl -d` send). Value type.
public enum RESTBodyFormat: Hashable, Sendable {
    case json
    case form

    /// The format named by a `Content-Type` value (media type case-insensitive, parameters after `;`); a
    /// `charset` other than UTF-8 names none.
    ///
    /// - Returns: nil for any other media type, or for no `Content-Type` at all: the request is answered 415.
    public init?(contentType: String?) {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingASCIISpaces().lowercased() }
        guard let mediaType = parts.first else { return nil }
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            var charset = parameter.dropFirst("charset=".count)
            if charset.hasPrefix("\""), charset.hasSuffix("\""), charset.count >= 2 {
                charset = charset.dropFirst().dropLast()
            }
            guard charset == "utf-8" || charset == "utf8" else { return nil }
        }
        switch mediaType {
        case "application/json": self = .json
        case "application/x-www-form-urlencoded": self = .form
        default: return nil
        }
    }

    /// The media types a write takes, for a 415's message.
    public static let accepted = "application/json or application/x-www-form-urlencoded"
}

/// UTF-8 checks for text that arrives as bytes. Stateless.
enum RESTBodyText {
    /// The offset of the first byte that is not part of well-formed UTF-8, or nil when all of `bytes` is.
    static func firstInvalidUTF8Offset(_ bytes: some Collection<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

extension Substring {
    fileprivate func trimmingASCIISpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
