// A rating travels as integers only:
// {"drawn":d,"lost":l,"played":n,"player":"…","points":p,"won":w}. Clients compute the value.

extension Rating: Codable {
    /// Decodes the rating's fields from a keyed object; other keys (such as a change's `kind`) are ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        self.init(
            playerID: try container.decode(PlayerID.self, forKey: WireKey("player")),
            points: try container.decodeInteger(Int.self, forKey: WireKey("points")),
            played: try container.decodeInteger(Int.self, forKey: WireKey("played")),
            won: try container.decodeInteger(Int.self, forKey: WireKey("won")),
            drawn: try container.decodeInteger(Int.self, forKey: WireKey("drawn")),
            lost: try container.decodeInteger(Int.self, forKey: WireKey("lost"))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(drawn, forKey: WireKey("drawn"))
        try container.encode(lost, forKey: WireKey("lost"))
        try container.encode(played, forKey: WireKey("played"))
        try container.encode(playerID, forKey: WireKey("player"))
        try container.encode(points, forKey: WireKey("points"))
        try container.encode(won, forKey: WireKey("won"))
    }
}
