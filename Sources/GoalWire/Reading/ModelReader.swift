public import GoalModel

// The readers of the model types: the one decoder of every model value, for both message directions and for
// the store's exactly-once records. Each reads the shape the writers in `JSONWriter+Model.swift` write.
//
// Decoding validates shape only (JSON types, UUID and digest syntax, required keys, known enum values, integers
// that are integers); domain rules such as 0…999 goals or name rules stay with the conflict engine.

extension MutationAction {
    /// The wire names of every operation (`op`), in declaration order.
    public static let operations = [
        "create_player", "rename_player", "delete_player", "create_match", "update_match", "adjust_goals",
        "delete_match",
    ]
}

extension Change {
    /// The wire names of every change kind (`kind`), in declaration order.
    public static let kinds = ["player", "player_deleted", "match", "match_deleted", "rating"]
}

/// Reads model values out of parsed JSON; every failure names the field. Stateless.
enum ModelReader {
    static func playerID(_ value: JSONValue, at path: String) throws(WireDecodingError) -> PlayerID {
        let text = try JSONReader.string(value, at: path)
        guard let id = PlayerID(text) else {
            throw .invalidValue(path, "expected a UUID string; found \"\(text.prefix(64))\"")
        }
        return id
    }

    static func matchID(_ value: JSONValue, at path: String) throws(WireDecodingError) -> MatchID {
        let text = try JSONReader.string(value, at: path)
        guard let id = MatchID(text) else {
            throw .invalidValue(path, "expected a UUID string; found \"\(text.prefix(64))\"")
        }
        return id
    }

    static func playerIDs(_ value: JSONValue, at path: String) throws(WireDecodingError) -> [PlayerID] {
        try JSONReader.array(value, at: path) { (element, path) throws(WireDecodingError) in
            try playerID(element, at: path)
        }
    }

    static func instance(_ value: JSONValue, at path: String) throws(WireDecodingError) -> ClientInstanceID {
        let text = try JSONReader.string(value, at: path)
        guard let id = ClientInstanceID(text) else {
            throw .invalidValue(
                path,
                "expected a non-empty client instance id of at most 64 bytes; found \(text.utf8.count) bytes"
            )
        }
        return id
    }

    static func league(_ value: JSONValue, at path: String) throws(WireDecodingError) -> LeagueSlug {
        let text = try JSONReader.string(value, at: path)
        do {
            return try LeagueSlug(validating: text)
        } catch {
            throw .invalidValue(path, error.description)
        }
    }

    static func digest(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Digest {
        let text = try JSONReader.string(value, at: path)
        guard let digest = Digest(hex: text) else {
            throw .invalidValue(path, "expected 64 hex digits; found \"\(text.prefix(70))\"")
        }
        return digest
    }

    static func timestamp(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Timestamp {
        Timestamp(millisecondsSince1970: try JSONReader.integer(value, at: path))
    }

    /// `{"by":"instance","rev":R}`
    static func stamp(_ value: JSONValue, at path: String) throws(WireDecodingError) -> FieldStamp {
        let object = try JSONObject(value, at: path)
        return FieldStamp(
            revision: try object.integer("rev"),
            writer: try object.read("by", instance)
        )
    }

    /// A player's members from `object`; other members (a change's `kind`) are ignored.
    static func player(_ object: JSONObject) throws(WireDecodingError) -> Player {
        Player(
            id: try object.read("id", playerID),
            name: try object.string("name"),
            nameKey: try object.string("name_key"),
            created: try object.read("created", stamp),
            nameStamp: try object.read("name_stamp", stamp)
        )
    }

    static func player(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Player {
        try player(try JSONObject(value, at: path))
    }

    static func matchStamps(_ value: JSONValue, at path: String) throws(WireDecodingError) -> MatchStamps {
        let object = try JSONObject(value, at: path)
        return MatchStamps(
            homePlayers: try object.read(MatchField.homePlayers.rawValue, stamp),
            awayPlayers: try object.read(MatchField.awayPlayers.rawValue, stamp),
            homeGoals: try object.read(MatchField.homeGoals.rawValue, stamp),
            awayGoals: try object.read(MatchField.awayGoals.rawValue, stamp)
        )
    }

    /// A match's members from `object`; other members (a change's `kind`) are ignored.
    static func match(_ object: JSONObject) throws(WireDecodingError) -> Match {
        Match(
            id: try object.read("id", matchID),
            homePlayers: try object.read("home_players", playerIDs),
            awayPlayers: try object.read("away_players", playerIDs),
            homeGoals: try object.integer("home_goals"),
            awayGoals: try object.integer("away_goals"),
            created: try object.read("created", stamp),
            stamps: try object.read("stamps", matchStamps)
        )
    }

    static func match(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Match {
        try match(try JSONObject(value, at: path))
    }

    /// A rating's members from `object`; other members (a change's `kind`) are ignored.
    static func rating(_ object: JSONObject) throws(WireDecodingError) -> Rating {
        Rating(
            playerID: try object.read("player", playerID),
            points: try object.integer("points"),
            played: try object.integer("played"),
            won: try object.integer("won"),
            drawn: try object.integer("drawn"),
            lost: try object.integer("lost")
        )
    }

    static func rating(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Rating {
        try rating(try JSONObject(value, at: path))
    }

    /// One change: a flat object with its `kind`.
    static func change(_ value: JSONValue, at path: String) throws(WireDecodingError) -> Change {
        let object = try JSONObject(value, at: path)
        switch try object.discriminator("kind", among: Change.kinds) {
        case "player": return .playerUpserted(try player(object))
        case "player_deleted": return .playerDeleted(try object.read("id", playerID))
        case "match": return .matchUpserted(try match(object))
        case "match_deleted": return .matchDeleted(try object.read("id", matchID))
        default: return .ratingUpdated(try rating(object))
        }
    }

    /// A changeset object (a `changeset` frame reads the same way; its `type` member is ignored).
    static func changeset(_ object: JSONObject) throws(WireDecodingError) -> Changeset {
        Changeset(
            revision: try object.integer("revision"),
            mutationID: object.contains("client_instance") ? try mutationID(object) : nil,
            author: try object.string("author"),
            time: try object.read("time", timestamp),
            action: try object.readIfPresent("action") { (value, path) throws(WireDecodingError) in
                try action(try JSONObject(value, at: path))
            },
            changes: try object.read("changes") { (value, path) throws(WireDecodingError) in
                try JSONReader.array(value, at: path, change)
            },
            digest: try object.read("digest", digest)
        )
    }

    /// `{"client_instance":"…","seq":n}`, flat in its object.
    static func mutationID(_ object: JSONObject) throws(WireDecodingError) -> MutationID {
        MutationID(instance: try object.read("client_instance", instance), seq: try object.integer("seq"))
    }

    /// `op` and the members of that operation; other members (a message's `type`, `seq`, `base`) are ignored.
    static func action(_ object: JSONObject) throws(WireDecodingError) -> MutationAction {
        switch try object.discriminator("op", among: MutationAction.operations) {
        case "create_player":
            return .createPlayer(id: try object.read("id", playerID), name: try object.string("name"))
        case "rename_player":
            return .renamePlayer(id: try object.read("id", playerID), name: try object.string("name"))
        case "delete_player":
            return .deletePlayer(id: try object.read("id", playerID))
        case "create_match":
            return .createMatch(
                id: try object.read("id", matchID),
                homePlayers: try object.read("home_players", playerIDs),
                awayPlayers: try object.read("away_players", playerIDs),
                homeGoals: try object.integer("home_goals"),
                awayGoals: try object.integer("away_goals")
            )
        case "update_match":
            return .updateMatch(id: try object.read("id", matchID), try matchUpdate(object))
        case "adjust_goals":
            return .adjustGoals(
                id: try object.read("id", matchID),
                side: try object.enumeration("side"),
                delta: try object.integer("delta")
            )
        default:
            return .deleteMatch(id: try object.read("id", matchID))
        }
    }

    /// The written fields of an `update_match`; an absent member means "not written" (`null` is a type error).
    static func matchUpdate(_ object: JSONObject) throws(WireDecodingError) -> MatchUpdate {
        func players(_ field: MatchField) throws(WireDecodingError) -> [PlayerID]? {
            guard let value = object.member(field.rawValue) else { return nil }
            return try playerIDs(value, at: object.path(field.rawValue))
        }
        return MatchUpdate(
            homePlayers: try players(.homePlayers),
            awayPlayers: try players(.awayPlayers),
            homeGoals: try object.optionalInteger(MatchField.homeGoals.rawValue),
            awayGoals: try object.optionalInteger(MatchField.awayGoals.rawValue)
        )
    }

    /// The current entity of a rejection: `{"kind":"player"|"match", …}`.
    static func entityState(_ value: JSONValue, at path: String) throws(WireDecodingError) -> EntityState {
        let object = try JSONObject(value, at: path)
        switch try object.discriminator("kind", among: ["player", "match"]) {
        case "player": return .player(try player(object))
        default: return .match(try match(object))
        }
    }

    /// A rejection's members; `fields` may be absent (empty), `current` absent or null.
    static func rejection(_ object: JSONObject) throws(WireDecodingError) -> MutationRejection {
        MutationRejection(
            code: try object.enumeration("code"),
            message: try object.string("message"),
            fields: try object.readIfPresent("fields") { (value, path) throws(WireDecodingError) in
                try JSONReader.array(value, at: path, JSONReader.string)
            } ?? [],
            current: try object.readIfPresent("current", entityState)
        )
    }

    /// An outcome: `{"outcome":"committed"|"noop","revision":R}` or `{"outcome":"rejected", …rejection}`.
    static func outcome(_ value: JSONValue, at path: String) throws(WireDecodingError) -> MutationOutcome {
        let object = try JSONObject(value, at: path)
        switch try object.discriminator("outcome", among: ["committed", "noop", "rejected"]) {
        case "committed": return .committed(try object.integer("revision"))
        case "noop": return .noop(try object.integer("revision"))
        default: return .rejected(try rejection(object))
        }
    }
}
