public import GoalModel
public import GoalStore

extension TestDaemon {
    /// The daemon's league catalog (its store's).
    /// - Throws: `TestDaemonLeagueError` when the store has none.
    public func catalog() throws -> any LeagueCatalog {
        guard let catalog = storage as? any LeagueCatalog else { throw TestDaemonLeagueError(detail: "no catalog") }
        return catalog
    }

    /// Creates a league named after its slug, as `goald league create` does.
    @discardableResult
    public func createLeague(_ slug: String) throws -> LeagueSlug {
        let league = try LeagueSlug(validating: slug)
        try catalog().createLeague(
            LeagueInfo(
                slug: league,
                name: try PlayerName(validating: slug),
                created: Timestamp(millisecondsSince1970: 1_767_225_600_000)
            )
        )
        return league
    }

    /// Creates a token confined to `leagues` (empty: every league, with `role`) and returns its secret.
    public func createToken(
        _ name: String,
        role: Role = .viewer,
        leagues: [LeagueSlug: Role] = [:]
    ) throws -> String {
        let secret = "gt_test-\(name)-secret"
        try storage.createToken(
            StoredToken(
                name: name,
                role: role,
                secretHash: Self.hash(secret),
                created: Timestamp(millisecondsSince1970: 1_767_225_600_000),
                leagues: leagues
            )
        )
        return secret
    }
}

/// A test daemon's store cannot do what a league test asks. Value type.
public struct TestDaemonLeagueError: Error, Sendable {
    public let detail: String
}
