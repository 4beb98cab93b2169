// A change travels as one flat object with a "kind" discriminator:
//   player {player fields}   player_deleted {id}   match {match fields}   match_deleted {id}   rating {rating fields}
// A changeset as {"action"?,"author","changes","client_instance"?,"digest","revision","seq"?,"time"}: the action
// object is nested, the mutation id is flat. GoalWire's `ChangesetFrame` writes the same shape by hand (with
// `type`, `revision`, `digest` and `time` first) and hashes its canonical form.

extension Change: Codable {
    /// The wire names of every kind, in declaration order.
    public static let kinds = ["player", "player_deleted", "match", "match_deleted", "rating"]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        switch try container.decodeDiscriminator("kind", among: Change.kinds) {
        case "player": self = .playerUpserted(try Player(from: decoder))
        case "player_deleted": self = .playerDeleted(try container.decode(PlayerID.self, forKey: WireKey("id")))
        case "match": self = .matchUpserted(try Match(from: decoder))
        case "match_deleted": self = .matchDeleted(try container.decode(MatchID.self, forKey: WireKey("id")))
        default: self = .ratingUpdated(try Rating(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        switch self {
        case .playerUpserted(let player):
            try container.encode("player", forKey: WireKey("kind"))
            try player.encode(to: encoder)
        case .playerDeleted(let id):
            try container.encode("player_deleted", forKey: WireKey("kind"))
            try container.encode(id, forKey: WireKey("id"))
        case .matchUpserted(let match):
            try container.encode("match", forKey: WireKey("kind"))
            try match.encode(to: encoder)
        case .matchDeleted(let id):
            try container.encode("match_deleted", forKey: WireKey("kind"))
            try container.encode(id, forKey: WireKey("id"))
        case .ratingUpdated(let rating):
            try container.encode("rating", forKey: WireKey("kind"))
            try rating.encode(to: encoder)
        }
    }
}

extension Changeset: Codable {
    /// Decodes a changeset object (a `changeset` frame decodes the same way; its `type` key is ignored).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let instanceKey = WireKey("client_instance")
        self.init(
            revision: try container.decodeInteger(Revision.self, forKey: WireKey("revision")),
            mutationID: container.contains(instanceKey) ? try MutationID(from: decoder) : nil,
            author: try container.decode(String.self, forKey: WireKey("author")),
            time: try container.decode(Timestamp.self, forKey: WireKey("time")),
            action: try container.decodeIfPresent(MutationAction.self, forKey: WireKey("action")),
            changes: try container.decode([Change].self, forKey: WireKey("changes")),
            digest: try container.decode(Digest.self, forKey: WireKey("digest"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encodeIfPresent(action, forKey: WireKey("action"))
        try container.encode(author, forKey: WireKey("author"))
        try container.encode(changes, forKey: WireKey("changes"))
        try mutationID?.encode(to: encoder)
        try container.encode(digest, forKey: WireKey("digest"))
        try container.encode(revision, forKey: WireKey("revision"))
        try container.encode(time, forKey: WireKey("time"))
    }
}
