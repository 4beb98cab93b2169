// A mutation action travels as one flat object with an "op" discriminator:
//   create_player {id, name}            rename_player {id, name}            delete_player {id}
//   create_match {id, home_players, away_players, home_goals, away_goals}
//   update_match {id, only the written fields of home_players, away_players, home_goals, away_goals}
//   adjust_goals {id, side, delta}      delete_match {id}
// A mutation id travels as {"client_instance":"…","seq":n}; a mutation adds "base" to both, flat.

extension MutationAction: Codable {
    /// The wire names of every operation, in declaration order.
    public static let operations = [
        "create_player", "rename_player", "delete_player", "create_match", "update_match", "adjust_goals",
        "delete_match",
    ]

    /// Decodes `op` and the fields of that operation; other keys (a message's `type`, `seq`, `base`) are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let op = try container.decodeDiscriminator("op", among: MutationAction.operations)
        func key(_ name: String) -> WireKey { WireKey(name) }
        switch op {
        case "create_player":
            self = .createPlayer(
                id: try container.decode(PlayerID.self, forKey: key("id")),
                name: try container.decode(String.self, forKey: key("name"))
            )
        case "rename_player":
            self = .renamePlayer(
                id: try container.decode(PlayerID.self, forKey: key("id")),
                name: try container.decode(String.self, forKey: key("name"))
            )
        case "delete_player":
            self = .deletePlayer(id: try container.decode(PlayerID.self, forKey: key("id")))
        case "create_match":
            self = .createMatch(
                id: try container.decode(MatchID.self, forKey: key("id")),
                homePlayers: try container.decode([PlayerID].self, forKey: key("home_players")),
                awayPlayers: try container.decode([PlayerID].self, forKey: key("away_players")),
                homeGoals: try container.decodeInteger(Int.self, forKey: key("home_goals")),
                awayGoals: try container.decodeInteger(Int.self, forKey: key("away_goals"))
            )
        case "update_match":
            self = .updateMatch(id: try container.decode(MatchID.self, forKey: key("id")), try MatchUpdate(from: decoder))
        case "adjust_goals":
            self = .adjustGoals(
                id: try container.decode(MatchID.self, forKey: key("id")),
                side: try container.decode(Side.self, forKey: key("side")),
                delta: try container.decodeInteger(Int.self, forKey: key("delta"))
            )
        default:
            self = .deleteMatch(id: try container.decode(MatchID.self, forKey: key("id")))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(operation, forKey: WireKey("op"))
        switch self {
        case .createPlayer(let id, let name), .renamePlayer(let id, let name):
            try container.encode(id, forKey: WireKey("id"))
            try container.encode(name, forKey: WireKey("name"))
        case .deletePlayer(let id):
            try container.encode(id, forKey: WireKey("id"))
        case .createMatch(let id, let homePlayers, let awayPlayers, let homeGoals, let awayGoals):
            try container.encode(id, forKey: WireKey("id"))
            try container.encode(homePlayers, forKey: WireKey("home_players"))
            try container.encode(awayPlayers, forKey: WireKey("away_players"))
            try container.encode(homeGoals, forKey: WireKey("home_goals"))
            try container.encode(awayGoals, forKey: WireKey("away_goals"))
        case .updateMatch(let id, let update):
            try container.encode(id, forKey: WireKey("id"))
            try update.encode(to: encoder)
        case .adjustGoals(let id, let side, let delta):
            try container.encode(id, forKey: WireKey("id"))
            try container.encode(side, forKey: WireKey("side"))
            try container.encode(delta, forKey: WireKey("delta"))
        case .deleteMatch(let id):
            try container.encode(id, forKey: WireKey("id"))
        }
    }
}

extension MatchUpdate: Codable {
    /// Decodes the written fields; an absent key means "not written" (null is a type error, not "absent").
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        func players(_ field: MatchField) throws -> [PlayerID]? {
            let key = WireKey(field.rawValue)
            return container.contains(key) ? try container.decode([PlayerID].self, forKey: key) : nil
        }
        func goals(_ field: MatchField) throws -> Int? {
            let key = WireKey(field.rawValue)
            return container.contains(key) ? try container.decodeInteger(Int.self, forKey: key) : nil
        }
        self.init(
            homePlayers: try players(.homePlayers),
            awayPlayers: try players(.awayPlayers),
            homeGoals: try goals(.homeGoals),
            awayGoals: try goals(.awayGoals)
        )
    }

    /// Encodes only the written fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encodeIfPresent(homePlayers, forKey: WireKey(MatchField.homePlayers.rawValue))
        try container.encodeIfPresent(awayPlayers, forKey: WireKey(MatchField.awayPlayers.rawValue))
        try container.encodeIfPresent(homeGoals, forKey: WireKey(MatchField.homeGoals.rawValue))
        try container.encodeIfPresent(awayGoals, forKey: WireKey(MatchField.awayGoals.rawValue))
    }
}

extension MutationID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            instance: try container.decode(ClientInstanceID.self, forKey: WireKey("client_instance")),
            seq: try container.decodeInteger(UInt64.self, forKey: WireKey("seq"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(instance, forKey: WireKey("client_instance"))
        try container.encode(seq, forKey: WireKey("seq"))
    }
}

extension Mutation: Codable {
    /// Decodes `{"client_instance","seq","base", …action fields}` from one flat object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            id: try MutationID(from: decoder),
            base: try container.decodeInteger(Revision.self, forKey: WireKey("base")),
            action: try MutationAction(from: decoder)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(base, forKey: WireKey("base"))
        try id.encode(to: encoder)
        try action.encode(to: encoder)
    }
}
