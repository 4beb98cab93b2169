import Foundation
import GRDB
import GoalModel

/// The league catalog's tables (migrations `v4-leagues` and `v4-token-leagues`).
///
/// Every goald SQLite file gets them (one migrator for all), but only the home database's are read: a league's own
/// file (`leagues/<slug>.sqlite`) keeps an empty token table and a catalog holding only the default row.
enum SQLiteLeagueSchema {
    /// `leagues`: one row per league, the default league's included. The default league's row is written here, by the
    /// migration, and always exists (it can be renamed, never deleted), so listing and renaming have one code path
    /// and its `created` is a real moment: when this database was made, or upgraded to leagues, rather than a value
    /// made up on every read. `created` is Unix milliseconds.
    static func createLeagues(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE leagues (
                    slug TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    created INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                """
        )
        try db.execute(
            sql: "INSERT INTO leagues (slug, name, created) VALUES (?, ?, ?)",
            arguments: [
                LeagueSlug.default.rawValue, LeagueInfo.defaultName, Int64(Date().timeIntervalSince1970 * 1000),
            ]
        )
    }

    /// `tokens.leagues`: a token's league grants in `LeagueGrantsText` form (`office=admin,home=viewer`). Tokens made
    /// before leagues existed get "" (every league, with their role), so they keep working as they did.
    static func addTokenLeagues(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE tokens ADD COLUMN leagues TEXT NOT NULL DEFAULT ''")
    }
}
