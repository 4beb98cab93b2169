// A rejection travels as {"code","message","fields":[…],"current"?} where current is the entity as it is now:
// {"kind":"player"|"match", …entity fields}. An outcome (the exactly-once table's record) adds an "outcome"
// discriminator: committed {revision}, noop {revision}, rejected {rejection fields}.

extension MutationRejection.Code: Codable {
    public init(from decoder: any Decoder) throws { self = try decoder.decodeWireEnum(MutationRejection.Code.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension EntityState: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        switch try container.decodeDiscriminator("kind", among: ["player", "match"]) {
        case "player": self = .player(try Player(from: decoder))
        default: self = .match(try Match(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        switch self {
        case .player(let player):
            try container.encode("player", forKey: WireKey("kind"))
            try player.encode(to: encoder)
        case .match(let match):
            try container.encode("match", forKey: WireKey("kind"))
            try match.encode(to: encoder)
        }
    }
}

extension MutationRejection: Codable {
    /// Decodes the rejection's fields; `fields` may be absent (empty), `current` may be absent or null.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            code: try container.decode(Code.self, forKey: WireKey("code")),
            message: try container.decode(String.self, forKey: WireKey("message")),
            fields: try container.decodeIfPresent([String].self, forKey: WireKey("fields")) ?? [],
            current: try container.decodeIfPresent(EntityState.self, forKey: WireKey("current"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(code, forKey: WireKey("code"))
        try container.encodeIfPresent(current, forKey: WireKey("current"))
        try container.encode(fields, forKey: WireKey("fields"))
        try container.encode(message, forKey: WireKey("message"))
    }
}

extension MutationOutcome: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        switch try container.decodeDiscriminator("outcome", among: ["committed", "noop", "rejected"]) {
        case "committed": self = .committed(try container.decodeInteger(Revision.self, forKey: WireKey("revision")))
        case "noop": self = .noop(try container.decodeInteger(Revision.self, forKey: WireKey("revision")))
        default: self = .rejected(try MutationRejection(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        switch self {
        case .committed(let revision):
            try container.encode("committed", forKey: WireKey("outcome"))
            try container.encode(revision, forKey: WireKey("revision"))
        case .noop(let revision):
            try container.encode("noop", forKey: WireKey("outcome"))
            try container.encode(revision, forKey: WireKey("revision"))
        case .rejected(let rejection):
            try container.encode("rejected", forKey: WireKey("outcome"))
            try rejection.encode(to: encoder)
        }
    }
}
