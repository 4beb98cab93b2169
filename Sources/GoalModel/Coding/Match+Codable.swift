// A match travels as {"away_goals":n,"away_players":[…],"created":stamp,"home_goals":n,"home_players":[…],
// "id":"…","stamps":{"away_goals":stamp,"away_players":stamp,"home_goals":stamp,"home_players":stamp}}.

extension Side: Codable {
    public init(from decoder: any Decoder) throws { self = try decoder.decodeWireEnum(Side.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension MatchField: Codable {
    public init(from decoder: any Decoder) throws { self = try decoder.decodeWireEnum(MatchField.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension MatchStamps: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            homePlayers: try container.decode(FieldStamp.self, forKey: WireKey(MatchField.homePlayers.rawValue)),
            awayPlayers: try container.decode(FieldStamp.self, forKey: WireKey(MatchField.awayPlayers.rawValue)),
            homeGoals: try container.decode(FieldStamp.self, forKey: WireKey(MatchField.homeGoals.rawValue)),
            awayGoals: try container.decode(FieldStamp.self, forKey: WireKey(MatchField.awayGoals.rawValue))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        for field in MatchField.allCases {
            try container.encode(self[field], forKey: WireKey(field.rawValue))
        }
    }
}

extension Match: Codable {
    /// Decodes the match's fields from a keyed object; other keys (such as a change's `kind`) are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            id: try container.decode(MatchID.self, forKey: WireKey("id")),
            homePlayers: try container.decode([PlayerID].self, forKey: WireKey("home_players")),
            awayPlayers: try container.decode([PlayerID].self, forKey: WireKey("away_players")),
            homeGoals: try container.decodeInteger(Int.self, forKey: WireKey("home_goals")),
            awayGoals: try container.decodeInteger(Int.self, forKey: WireKey("away_goals")),
            created: try container.decode(FieldStamp.self, forKey: WireKey("created")),
            stamps: try container.decode(MatchStamps.self, forKey: WireKey("stamps"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(awayGoals, forKey: WireKey("away_goals"))
        try container.encode(awayPlayers, forKey: WireKey("away_players"))
        try container.encode(created, forKey: WireKey("created"))
        try container.encode(homeGoals, forKey: WireKey("home_goals"))
        try container.encode(homePlayers, forKey: WireKey("home_players"))
        try container.encode(id, forKey: WireKey("id"))
        try container.encode(stamps, forKey: WireKey("stamps"))
    }
}
