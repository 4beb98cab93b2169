/// A player of the league, as the server holds it and as every replica mirrors it.
///
/// Value type, `Sendable`. `name` is already normalized (NFC, trimmed) and `nameKey` is its case-folded
/// uniqueness key; both come from `PlayerName`, which enforces the name rules (docs/RULES.md "Domain rules").
public struct Player: Hashable, Sendable, Identifiable {
    /// The player's id.
    public let id: PlayerID
    /// The display name (normalized).
    public var name: String
    /// The uniqueness key: case-folded NFC of `name`. Two players never share a key.
    public var nameKey: String
    /// The commit that created the player.
    public var created: FieldStamp
    /// The last write of `name` (creation counts as a write).
    public var nameStamp: FieldStamp

    public init(id: PlayerID, name: PlayerName, created: FieldStamp) {
        self.id = id
        self.name = name.value
        self.nameKey = name.key
        self.created = created
        self.nameStamp = created
    }

    /// Builds a player from already-validated parts (decoding, stores).
    public init(id: PlayerID, name: String, nameKey: String, created: FieldStamp, nameStamp: FieldStamp) {
        self.id = id
        self.name = name
        self.nameKey = nameKey
        self.created = created
        self.nameStamp = nameStamp
    }

    /// The revision of the entity's latest change.
    public var revision: Revision { max(created.revision, nameStamp.revision) }
}

/// The fields of a player a mutation can write; they name conflicts on the wire.
public enum PlayerField: String, Hashable, Sendable, CaseIterable {
    case name
}
