import Foundation
import GRDB
import GoalModel

/// The SQLite schema, as versioned, named `DatabaseMigrator` migrations. Never edit a shipped migration: add a
/// new one. Ratings are derived and not stored; the exactly-once table is never pruned with the log (the server
/// forgets idle records itself, through `StorageBatch.forgottenClients`).
enum SQLiteSchema {
    /// Every migration this goald knows, in order.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-meta", migrate: createMeta)
        migrator.registerMigration("v1-entities", migrate: createEntities)
        migrator.registerMigration("v1-log", migrate: createLog)
        migrator.registerMigration("v1-clients", migrate: createClients)
        migrator.registerMigration("v1-tokens", migrate: createTokens)
        migrator.registerMigration("v2-client-last-used", migrate: addClientLastUsed)
        migrator.registerMigration("v3-changeset-entities", migrate: SQLiteHistorySchema.createChangesetEntities)
        migrator.registerMigration("v4-leagues", migrate: SQLiteLeagueSchema.createLeagues)
        migrator.registerMigration("v4-token-leagues", migrate: SQLiteLeagueSchema.addTokenLeagues)
        return migrator
    }()

    /// One row: the epoch (random, made with the database) and the durable head with its digest.
    private static func createMeta(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE league (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    epoch TEXT NOT NULL,
                    head_revision INTEGER NOT NULL CHECK (head_revision >= 0),
                    head_digest BLOB NOT NULL CHECK (length(head_digest) = 32)
                ) STRICT;
                """
        )
        try db.execute(
            sql: "INSERT INTO league (id, epoch, head_revision, head_digest) VALUES (1, ?, 0, ?)",
            arguments: [LeagueEpoch.random().rawValue, SQLiteCoding.blob(Digest.genesis.bytes)]
        )
    }

    /// Players (unique name key, never COLLATE NOCASE) and matches with a stamp (revision, writer) per field;
    /// match players in their own table, ordered by (side, position), referencing players.
    private static func createEntities(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE players (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    name_key TEXT NOT NULL,
                    created_rev INTEGER NOT NULL,
                    created_by TEXT NOT NULL,
                    name_rev INTEGER NOT NULL,
                    name_by TEXT NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE UNIQUE INDEX players_name_key ON players (name_key);
                CREATE TABLE matches (
                    id TEXT PRIMARY KEY NOT NULL,
                    home_goals INTEGER NOT NULL,
                    away_goals INTEGER NOT NULL,
                    created_rev INTEGER NOT NULL,
                    created_by TEXT NOT NULL,
                    home_players_rev INTEGER NOT NULL,
                    home_players_by TEXT NOT NULL,
                    away_players_rev INTEGER NOT NULL,
                    away_players_by TEXT NOT NULL,
                    home_goals_rev INTEGER NOT NULL,
                    home_goals_by TEXT NOT NULL,
                    away_goals_rev INTEGER NOT NULL,
                    away_goals_by TEXT NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE match_players (
                    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                    side INTEGER NOT NULL CHECK (side IN (0, 1)),
                    position INTEGER NOT NULL,
                    player_id TEXT NOT NULL REFERENCES players (id),
                    PRIMARY KEY (match_id, side, position)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX match_players_player ON match_players (player_id);
                """
        )
    }

    /// The changeset log: one row per revision with the exact frame bytes.
    private static func createLog(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE changesets (
                    revision INTEGER PRIMARY KEY NOT NULL,
                    author TEXT NOT NULL,
                    time INTEGER NOT NULL,
                    digest BLOB NOT NULL CHECK (length(digest) = 32),
                    client_instance TEXT,
                    seq INTEGER,
                    frame BLOB NOT NULL
                ) STRICT;
                """
        )
    }

    /// The exactly-once table: per client instance, the last seq and the last K results (JSON).
    private static func createClients(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE client_records (
                    instance TEXT PRIMARY KEY NOT NULL,
                    last_seq INTEGER NOT NULL,
                    results BLOB NOT NULL
                ) STRICT, WITHOUT ROWID;
                """
        )
    }

    /// When each exactly-once record was last used (Unix milliseconds). Records written before this column existed
    /// count as used when the database is upgraded, so their retention age starts then rather than at 1970.
    private static func addClientLastUsed(_ db: Database) throws {
        let upgraded = Int64(Date().timeIntervalSince1970 * 1000)
        // A NOT NULL column added to existing rows needs a constant default: the upgrade time, an integer literal.
        try db.execute(
            sql: "ALTER TABLE client_records ADD COLUMN last_used INTEGER NOT NULL DEFAULT \(upgraded)"
        )
    }

    /// Tokens: the secret's SHA-256 only; unique names and hashes.
    private static func createTokens(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE tokens (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL,
                    secret_hash BLOB NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
                    created INTEGER NOT NULL,
                    revoked INTEGER
                ) STRICT, WITHOUT ROWID;
                """
        )
    }
}
