public import GoalModel

/// The in-memory store's league catalog, kept in the home store's contents and changed under their lock: the
/// default league's name and creation time, and the contents of every other league (each its own lock, as each
/// SQLite league is its own file). Value type, `Sendable`.
struct MemoryCatalog: Sendable {
    struct League: Sendable {
        var info: LeagueInfo
        let contents: MemoryContentsBox
    }

    /// The default league's name once renamed; nil: `LeagueInfo.defaultName`.
    var defaultName: PlayerName?
    let defaultCreated: Timestamp
    var others: [LeagueSlug: League] = [:]

    init(created: Timestamp) { defaultCreated = created }

    /// The default league as listed.
    func defaultLeague() throws(StorageError) -> LeagueInfo {
        let name: PlayerName
        if let defaultName {
            name = defaultName
        } else {
            do {
                name = try PlayerName(validating: LeagueInfo.defaultName)
            } catch {
                throw .inconsistent("the default league's name is not a valid name: \(error)")
            }
        }
        return LeagueInfo(slug: .default, name: name, created: defaultCreated)
    }

    func info(_ slug: LeagueSlug) throws(StorageError) -> LeagueInfo? {
        slug.isDefault ? try defaultLeague() : others[slug]?.info
    }
}

/// `LeagueCatalog` in memory, with the SQLite catalog's rules and errors. Threading and lifetime: the store's.
extension InMemoryLeagueStorage: LeagueCatalog {
    public func leagues() throws(StorageError) -> [LeagueInfo] {
        try withOpen("leagues()") { contents throws(StorageError) in
            [try contents.catalog.defaultLeague()]
                + contents.catalog.others.values.map(\.info).sorted { $0.slug < $1.slug }
        }
    }

    public func league(_ slug: LeagueSlug) throws(StorageError) -> LeagueInfo? {
        try withOpen("league(_:)") { contents throws(StorageError) in try contents.catalog.info(slug) }
    }

    public func createLeague(_ league: LeagueInfo) throws(StorageError) {
        guard !league.slug.isDefault else { throw .defaultLeague(operation: "created") }
        try withOpen("createLeague(_:)") { contents throws(StorageError) in
            guard contents.catalog.others[league.slug] == nil else { throw .leagueExists(league.slug) }
            contents.catalog.others[league.slug] = MemoryCatalog.League(
                info: league,
                contents: MemoryContentsBox(MemoryContents(epoch: .random()))
            )
        }
    }

    public func renameLeague(_ slug: LeagueSlug, to name: PlayerName) throws(StorageError) -> LeagueInfo {
        try withOpen("renameLeague(_:to:)") { contents throws(StorageError) in
            if slug.isDefault {
                contents.catalog.defaultName = name
                return try contents.catalog.defaultLeague()
            }
            guard var league = contents.catalog.others[slug] else { throw .leagueNotFound(slug) }
            league.info.name = name
            contents.catalog.others[slug] = league
            return league.info
        }
    }

    public func deleteLeague(_ slug: LeagueSlug) throws(StorageError) {
        guard !slug.isDefault else { throw .defaultLeague(operation: "deleted") }
        try withOpen("deleteLeague(_:)") { contents throws(StorageError) in
            guard contents.catalog.others.removeValue(forKey: slug) != nil else { throw .leagueNotFound(slug) }
        }
    }

    /// A new handle on the league's contents, with this store's retention.
    public func openLeague(_ slug: LeagueSlug) throws(StorageError) -> any LeagueStorage {
        guard !slug.isDefault else {
            throw .defaultLeague(operation: "opened apart from the home store (it is its store)")
        }
        let league = try withOpen("openLeague(_:)") { contents throws(StorageError) in
            guard let league = contents.catalog.others[slug] else { throw .leagueNotFound(slug) }
            return league.contents
        }
        return InMemoryLeagueStorage(sharing: league, retention: retention)
    }
}
