/// Names one entity whose history can be read: a match or a player (ratings are derived and have none).
///
/// Value type, `Sendable`.
public enum EntityRef: Hashable, Sendable {
    case match(MatchID)
    case player(PlayerID)

    /// The entity kind's name: `match` or `player`.
    public var kind: String {
        switch self {
        case .match: "match"
        case .player: "player"
        }
    }

    /// The entity's id as text (lowercase UUID).
    public var id: String {
        switch self {
        case .match(let id): id.description
        case .player(let id): id.description
        }
    }

    /// The entities a changeset's changes write, in first-seen order, each once. `ratingUpdated` is left out: a
    /// rating is derived from matches, and a player's history is its own writes.
    public static func written(by changes: [Change]) -> [EntityRef] {
        var seen = Set<EntityRef>()
        var written: [EntityRef] = []
        for change in changes {
            let entity: EntityRef
            switch change {
            case .playerUpserted(let player): entity = .player(player.id)
            case .playerDeleted(let id): entity = .player(id)
            case .matchUpserted(let match): entity = .match(match.id)
            case .matchDeleted(let id): entity = .match(id)
            case .ratingUpdated: continue
            }
            if seen.insert(entity).inserted { written.append(entity) }
        }
        return written
    }

    /// What this entity is after `changes` (its last change among them), or nil when they do not write it.
    public func version(after changes: [Change]) -> EntityVersion? {
        var version: EntityVersion?
        for change in changes {
            switch (self, change) {
            case (.player(let id), .playerUpserted(let player)) where player.id == id: version = .player(player)
            case (.player(let id), .playerDeleted(let deleted)) where deleted == id: version = .deleted
            case (.match(let id), .matchUpserted(let match)) where match.id == id: version = .match(match)
            case (.match(let id), .matchDeleted(let deleted)) where deleted == id: version = .deleted
            default: continue
            }
        }
        return version
    }
}

/// One entity as a changeset left it. Value type, `Sendable`.
public enum EntityVersion: Hashable, Sendable {
    case player(Player)
    case match(Match)
    case deleted
}
