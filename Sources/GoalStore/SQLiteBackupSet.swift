import GRDB
public import GoalModel

/// A backup of a whole SQLite state: the home database at `FILE` (the default league, the tokens and the `leagues`
/// catalog) and every other league of that catalog at `FILE.leagues/<slug>.sqlite`. The catalog inside `FILE` is the
/// set's table of contents: a league it lists must have its file, and files it does not list are not part of the set.
/// A backup made when only the default league existed is `FILE` alone (no directory), as before leagues.
///
/// Stateless; every call is blocking file-system and SQLite IO on the caller's thread.
public enum SQLiteBackupSet {
    /// One database of a set: the default league (the home database) or another league, and what it holds.
    /// Value type, `Sendable`.
    public struct Part: Hashable, Sendable {
        /// The league (`.default` for the home database).
        public var slug: LeagueSlug
        /// The backup file of this league.
        public var path: String
        /// What it holds.
        public var summary: SQLiteLeagueStorage.BackupSummary
    }

    /// The directory of the leagues' backups that belongs to the backup `file`.
    public static func leaguesDirectory(of file: String) -> String { file + ".leagues" }

    /// The backup of `slug` in the set whose home backup is `file` (`file` itself for the default league).
    public static func path(of slug: LeagueSlug, in file: String) -> String {
        slug.isDefault ? file : SQLiteLeagueFiles.database(slug.rawValue, in: leaguesDirectory(of: file))
    }

    /// Checks a whole set: `file` as `validateBackup` does, then, for every league its catalog lists, that league's
    /// file the same way. Reads only.
    /// - Returns: The default league's part first, then the other leagues' by slug.
    /// - Throws: What `validateBackup` throws (for the first bad file); `fileAccess` naming the file of a listed
    ///   league that is missing; `inconsistent` for a catalog row whose slug is invalid.
    public static func validate(at file: String) throws(StorageError) -> [Part] {
        var parts = [Part(slug: .default, path: file, summary: try SQLiteLeagueStorage.validateBackup(at: file))]
        for slug in try listedLeagues(inBackup: file) {
            let path = path(of: slug, in: file)
            guard DatabaseFile.exists(path) else {
                throw .fileAccess(
                    path: path,
                    detail: "the backup \(file) lists league \(slug), but its backup file is missing"
                )
            }
            parts.append(Part(slug: slug, path: path, summary: try SQLiteLeagueStorage.validateBackup(at: path)))
        }
        return parts
    }

    /// The leagues other than the default one that the catalog of the (home) database at `path` lists, by slug;
    /// none when it has no catalog (an older goald's backup). Opens the file read-only.
    /// - Throws: `inconsistent` for a row whose slug is invalid; what opening or reading the file throws.
    static func listedLeagues(inBackup path: String) throws(StorageError) -> [LeagueSlug] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "goald.backup-catalog"
        let texts: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Closing a read-only connection cannot lose anything; the rows are already read.
            defer { try? queue.close() }
            texts = try queue.read { db in
                // A backup made before leagues existed has no catalog: it is the default league alone.
                guard try db.tableExists("leagues") else { return [] }
                return try String.fetchAll(
                    db,
                    sql: "SELECT slug FROM leagues WHERE slug <> ? ORDER BY slug",
                    arguments: [LeagueSlug.default.rawValue]
                )
            }
        } catch {
            throw SQLiteCoding.storageError(error, operation: "listedLeagues(inBackup:)", path: path)
        }
        var slugs: [LeagueSlug] = []
        for text in texts {
            do {
                slugs.append(try LeagueSlug(validating: text))
            } catch {
                throw .inconsistent("the catalog of \(path) lists an invalid league id: \(error)")
            }
        }
        return slugs
    }
}
