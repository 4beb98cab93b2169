// Ids travel as lowercase UUID strings, instance ids as their text, digests as 64 lowercase hex digits and
// timestamps as integer milliseconds since 1970.

extension PlayerID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = PlayerID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a UUID string; found \"\(text.prefix(64))\""
            )
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension MatchID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = MatchID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a UUID string; found \"\(text.prefix(64))\""
            )
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ClientInstanceID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ClientInstanceID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a non-empty client instance id of at most 64 bytes; found \(text.utf8.count) bytes"
            )
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension Digest: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let digest = Digest(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected 64 hex digits; found \"\(text.prefix(70))\""
            )
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(millisecondsSince1970: try decoder.singleValueContainer().decodeInteger(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }
}

extension Role: Codable {
    public init(from decoder: any Decoder) throws { self = try decoder.decodeWireEnum(Role.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
