// A stamp travels as {"rev":R,"by":"instance"}; a player as
// {"created":stamp,"id":"…","name":"…","name_key":"…","name_stamp":stamp}.

extension FieldStamp: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            revision: try container.decodeInteger(Revision.self, forKey: WireKey("rev")),
            writer: try container.decode(ClientInstanceID.self, forKey: WireKey("by"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(revision, forKey: WireKey("rev"))
        try container.encode(writer, forKey: WireKey("by"))
    }
}

extension Player: Codable {
    /// Decodes the player's fields from a keyed object; other keys (such as a change's `kind`) are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            id: try container.decode(PlayerID.self, forKey: WireKey("id")),
            name: try container.decode(String.self, forKey: WireKey("name")),
            nameKey: try container.decode(String.self, forKey: WireKey("name_key")),
            created: try container.decode(FieldStamp.self, forKey: WireKey("created")),
            nameStamp: try container.decode(FieldStamp.self, forKey: WireKey("name_stamp"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(created, forKey: WireKey("created"))
        try container.encode(id, forKey: WireKey("id"))
        try container.encode(name, forKey: WireKey("name"))
        try container.encode(nameKey, forKey: WireKey("name_key"))
        try container.encode(nameStamp, forKey: WireKey("name_stamp"))
    }
}

extension PlayerField: Codable {
    public init(from decoder: any Decoder) throws { self = try decoder.decodeWireEnum(PlayerField.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
