import GRDB
public import GoalModel

/// The SQLite league catalog: the `leagues` table of the home database (the daemon's `goald.sqlite`, which stays the
/// default league's own store, its epoch, revisions and digests untouched) and one SQLite file per other league at
/// `<directory of the home database>/leagues/<slug>.sqlite` (`SQLiteLeagueFiles`).
///
/// One file per league, not one database for all: SQLite has one write lock per database, so leagues sharing a file
/// would commit one after another; with a file each, commits of different leagues never wait for each other, each
/// league keeps its own WAL and checkpoints, and deleting a league removes its files instead of leaving its pages
/// to a vacuum.
///
/// Crash safety: `createLeague` creates the league's file first and inserts its row last, in one write transaction
/// of the home database (which also serialises creates and deletes between processes, e.g. `goald league` and a
/// running daemon); a file without a row (a crash in between) is never opened and is replaced by the next create of
/// that slug. `deleteLeague` deletes the row first, then the files; a crash in between leaves only such a file. The
/// cost: a create holds the home database's write lock while the new file is made (a few fsyncs), so the default
/// league's commits wait that long, once per created league.
/// Threading and lifetime: the store's (see `SQLiteLeagueStorage`).
extension SQLiteLeagueStorage: LeagueCatalog {
    /// The directory of the leagues other than the default one.
    public var leaguesDirectory: String { SQLiteLeagueFiles.directory(home: path) }

    /// The database file of a league other than the default one (whether or not the league exists).
    public func leaguePath(_ slug: LeagueSlug) -> String {
        SQLiteLeagueFiles.database(slug.rawValue, in: leaguesDirectory)
    }

    public func leagues() throws(StorageError) -> [LeagueInfo] {
        try run("leagues()") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT slug, name, created FROM leagues ORDER BY slug = ? DESC, slug",
                    arguments: [LeagueSlug.default.rawValue]
                ).map(Self.league(from:))
            }
        }
    }

    public func league(_ slug: LeagueSlug) throws(StorageError) -> LeagueInfo? {
        try run("league(_:)") { try pool.read { db in try Self.league(slug, in: db) } }
    }

    public func createLeague(_ league: LeagueInfo) throws(StorageError) {
        guard !league.slug.isDefault else { throw .defaultLeague(operation: "created") }
        let directory = leaguesDirectory
        let file = leaguePath(league.slug)
        let retention = retention
        try run("createLeague(_:)") {
            try pool.write { db in
                guard try Self.league(league.slug, in: db) == nil else { throw StorageError.leagueExists(league.slug) }
                try SQLiteLeagueFiles.createDirectory(directory)
                try SQLiteLeagueFiles.remove(file)  // a file left by a create that crashed before its row
                try SQLiteLeagueStorage(path: file, retention: retention).close()
                try SQLiteLeagueFiles.syncDirectory(directory)
                try db.execute(
                    sql: "INSERT INTO leagues (slug, name, created) VALUES (?, ?, ?)",
                    arguments: [league.slug.rawValue, league.name.value, league.created.millisecondsSince1970]
                )
            }
        }
    }

    public func renameLeague(_ slug: LeagueSlug, to name: PlayerName) throws(StorageError) -> LeagueInfo {
        try run("renameLeague(_:to:)") {
            try pool.write { db in
                try db.execute(
                    sql: "UPDATE leagues SET name = ? WHERE slug = ?",
                    arguments: [name.value, slug.rawValue]
                )
                guard let renamed = try Self.league(slug, in: db) else { throw StorageError.leagueNotFound(slug) }
                return renamed
            }
        }
    }

    public func deleteLeague(_ slug: LeagueSlug) throws(StorageError) {
        guard !slug.isDefault else { throw .defaultLeague(operation: "deleted") }
        try run("deleteLeague(_:)") {
            try pool.write { db in
                try db.execute(sql: "DELETE FROM leagues WHERE slug = ?", arguments: [slug.rawValue])
                guard db.changesCount > 0 else { throw StorageError.leagueNotFound(slug) }
            }
        }
        try SQLiteLeagueFiles.remove(leaguePath(slug))
        try SQLiteLeagueFiles.syncDirectory(leaguesDirectory)
    }

    /// Opens the league's own file with this store's retention. A league whose row exists but whose file is gone is
    /// an error, not a new empty league.
    public func openLeague(_ slug: LeagueSlug) throws(StorageError) -> any LeagueStorage {
        guard !slug.isDefault else {
            throw .defaultLeague(operation: "opened apart from the home store (it is its store)")
        }
        guard try league(slug) != nil else { throw .leagueNotFound(slug) }
        let file = leaguePath(slug)
        guard DatabaseFile.exists(file) else {
            throw .fileAccess(
                path: file,
                detail: "league \(slug)'s database is missing; restore it or delete the league"
            )
        }
        return try SQLiteLeagueStorage(path: file, retention: retention)
    }

    private static func league(_ slug: LeagueSlug, in db: Database) throws -> LeagueInfo? {
        try Row.fetchOne(db, sql: "SELECT slug, name, created FROM leagues WHERE slug = ?", arguments: [slug.rawValue])
            .map(league(from:))
    }

    private static func league(from row: Row) throws -> LeagueInfo {
        let slugText: String = try row.decode(atIndex: 0)
        let nameText: String = try row.decode(atIndex: 1)
        let slug: LeagueSlug
        let name: PlayerName
        do {
            slug = try LeagueSlug(validating: slugText)
            name = try PlayerName(validating: nameText)
        } catch {
            throw StorageError.inconsistent("league row \(slugText) has an invalid slug or name: \(error)")
        }
        return LeagueInfo(slug: slug, name: name, created: Timestamp(millisecondsSince1970: try row.decode(atIndex: 2)))
    }
}
