public import GoalModel
public import GoalStore
import PostgresNIO

/// The league catalog of a home store (`PostgresLeagueNamespace`): the default league is the home schema's tables,
/// every other league a schema of its own, listed in the home schema's `goald_leagues` (slug, name, created). The
/// default league has a row there only once it was renamed; its `created` is otherwise when goald first made its
/// schema in the database.
///
/// Creating a league adds its row, its schema, its tables and functions and its league row (a fresh epoch) in one
/// transaction; deleting one drops its schema (CASCADE) and its row in one. Both take the migration lock, so they
/// never interleave with another node's migration, creation or deletion.
///
/// A league's store (`openLeague`) shares the home store's event-loop thread, retention and logger, but not its
/// connections: each open league costs up to four PostgreSQL connections (its writer and reader, opened on first
/// use; another node's commits, once `watchHead` runs; presence, once `listenPresence` runs). The node claim is the
/// home store's alone. Size PostgreSQL's `max_connections` for leagues × nodes × 4, or keep idle leagues closed.
extension PostgresLeagueStorage: LeagueCatalog {
    public func leagues() throws(StorageError) -> [LeagueInfo] {
        try requireCatalog("leagues()")
        return try reader.withConnection("leagues()") { connection in
            var result = [try Self.defaultLeague(connection)]
            let rows = try connection.run(
                "SELECT slug, name, created FROM goald_leagues WHERE slug <> \(LeagueSlug.default.rawValue) ORDER BY slug"
            )
            for row in rows { result.append(try Self.league(from: row)) }
            return result
        }
    }

    public func league(_ slug: LeagueSlug) throws(StorageError) -> LeagueInfo? {
        try requireCatalog("league(_:)")
        return try reader.withConnection("league(_:)") { connection in
            if slug.isDefault { return try Self.defaultLeague(connection) }
            return try connection.run("SELECT slug, name, created FROM goald_leagues WHERE slug = \(slug.rawValue)")
                .first.map(Self.league(from:))
        }
    }

    public func createLeague(_ league: LeagueInfo) throws(StorageError) {
        try requireCatalog("createLeague(_:)")
        let namespace = PostgresLeagueNamespace.of(league.slug)
        guard let schema = namespace.schema else { throw .defaultLeague(operation: "created") }
        try writer.withConnection("createLeague(_:)") { connection in
            try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))")
                let slug = league.slug.rawValue
                if try !connection.run("SELECT 1 FROM goald_leagues WHERE slug = \(slug)").isEmpty {
                    throw StorageError.leagueExists(league.slug)
                }
                try connection.execute(
                    """
                    INSERT INTO goald_leagues (slug, name, created)
                    VALUES (\(slug), \(league.name.value), \(league.created.millisecondsSince1970))
                    """
                )
                // The schema's name is `[a-z0-9_]` (`PostgresLeagueNamespace`): nothing to quote.
                try connection.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
                // Until this transaction ends: the migrations create the league's tables in its schema.
                try connection.execute(PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(schema)"))
                try PostgresSchema.migrateInTransaction(connection, epoch: .random(), namespace: namespace)
            }
        }
    }

    public func renameLeague(_ slug: LeagueSlug, to name: PlayerName) throws(StorageError) -> LeagueInfo {
        try requireCatalog("renameLeague(_:to:)")
        return try writer.withConnection("renameLeague(_:to:)") { connection in
            try connection.transaction {
                if slug.isDefault {
                    let created = try Self.defaultLeague(connection).created.millisecondsSince1970
                    try connection.execute(
                        """
                        INSERT INTO goald_leagues (slug, name, created) VALUES (\(slug.rawValue), \(name.value), \(created))
                        ON CONFLICT (slug) DO UPDATE SET name = excluded.name
                        """
                    )
                    return try Self.defaultLeague(connection)
                }
                let renamed = try connection.run(
                    """
                    UPDATE goald_leagues SET name = \(name.value) WHERE slug = \(slug.rawValue)
                    RETURNING slug, name, created
                    """
                )
                guard let row = renamed.first else { throw StorageError.leagueNotFound(slug) }
                return try Self.league(from: row)
            }
        }
    }

    public func deleteLeague(_ slug: LeagueSlug) throws(StorageError) {
        try requireCatalog("deleteLeague(_:)")
        guard let schema = PostgresLeagueNamespace.of(slug).schema else { throw .defaultLeague(operation: "deleted") }
        try writer.withConnection("deleteLeague(_:)") { connection in
            try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))")
                guard try connection.execute("DELETE FROM goald_leagues WHERE slug = \(slug.rawValue)") == 1 else {
                    throw StorageError.leagueNotFound(slug)
                }
                try connection.execute(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
            }
        }
    }

    public func openLeague(_ slug: LeagueSlug) throws(StorageError) -> any LeagueStorage {
        try openLeagueStore(slug)
    }

    /// `openLeague`, typed: the league's store (`importLeague` fills one in `goald migrate`). It creates or upgrades
    /// the league's schema to this goald's version, as the home store's `init` does. Close it before this store.
    /// - Throws: `leagueNotFound`, `defaultLeague`, or what opening the store throws.
    public func openLeagueStore(_ slug: LeagueSlug) throws(StorageError) -> PostgresLeagueStorage {
        guard !slug.isDefault else { throw .defaultLeague(operation: "opened as another league") }
        guard try league(slug) != nil else { throw .leagueNotFound(slug) }
        var leagueConfiguration = configuration
        leagueConfiguration.namespace = .of(slug)
        shared.retain()  // given back by the league store's close(), or by its init when it fails
        return try PostgresLeagueStorage(
            configuration: leagueConfiguration,
            retention: retention,
            logger: logger,
            shared: shared
        )
    }

    /// Only the home store holds the catalog (a league's connections see its schema alone).
    private func requireCatalog(_ operation: String) throws(StorageError) {
        guard configuration.namespace == .home else {
            throw .inconsistent(
                "\(operation) asked the store of league \(configuration.namespace.schema ?? "?"); ask the home store"
            )
        }
    }

    /// The default league: its row once renamed, otherwise its default name, created when goald made its schema.
    private static func defaultLeague(_ connection: PostgresConnection) throws -> LeagueInfo {
        let slug = LeagueSlug.default.rawValue
        if let row = try connection.run("SELECT slug, name, created FROM goald_leagues WHERE slug = \(slug)").first {
            return try league(from: row)
        }
        let created =
            try connection.run(
                "SELECT (extract(epoch FROM applied_at) * 1000)::BIGINT FROM goald_schema WHERE version = 1"
            ).first?.decode(Int64.self) ?? 0
        return LeagueInfo(
            slug: .default,
            name: try PlayerName(validating: LeagueInfo.defaultName),
            created: Timestamp(millisecondsSince1970: created)
        )
    }

    private static func league(from row: PostgresRow) throws -> LeagueInfo {
        let (slugText, nameText, created) = try row.decode((String, String, Int64).self)
        do {
            return LeagueInfo(
                slug: try LeagueSlug(validating: slugText),
                name: try PlayerName(validating: nameText),
                created: Timestamp(millisecondsSince1970: created)
            )
        } catch {
            throw StorageError.inconsistent("league row \(slugText) cannot be read (\(error))")
        }
    }
}
