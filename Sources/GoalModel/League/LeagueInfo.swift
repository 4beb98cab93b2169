/// What a daemon knows of one league besides its data: its id, its display name and when it was created.
///
/// Value type, `Sendable`.
public struct LeagueInfo: Hashable, Sendable {
    /// The default league's name until someone renames it.
    public static let defaultName = "Default league"

    public var slug: LeagueSlug
    /// The display name (the rules of a player's name: 1–64 characters, trimmed, no control characters).
    public var name: PlayerName
    public var created: Timestamp

    public init(slug: LeagueSlug, name: PlayerName, created: Timestamp) {
        self.slug = slug
        self.name = name
        self.created = created
    }
}
