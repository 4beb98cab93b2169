import GRDB

/// The client state database's schema, as named `DatabaseMigrator` migrations (never edit a shipped one: add one).
///
/// One file per login and league (servers + token + league): the replica is shared by every slot (the newest save
/// wins), each slot has its own client instance, last seq and outbox. Model values are stored only as GoalWire bytes
/// (the replica as its snapshot frames, a mutation as its `mutate` message). The `league` row (v2) names the league
/// the file's replica and outboxes belong to: a file written before leagues holds the default league's.
enum ClientStateSchema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-client-state", migrate: createTables)
        migrator.registerMigration("v2-league", migrate: addLeague)
        return migrator
    }()

    private static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    epoch TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    synced_at_ms INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE replica_frames (
                    position INTEGER PRIMARY KEY,
                    frame BLOB NOT NULL
                ) STRICT;
                CREATE TABLE slots (
                    slot INTEGER PRIMARY KEY,
                    instance TEXT NOT NULL UNIQUE,
                    last_seq INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE outbox (
                    slot INTEGER NOT NULL REFERENCES slots (slot),
                    seq INTEGER NOT NULL,
                    mutate BLOB NOT NULL,
                    first_sent_ms INTEGER,
                    PRIMARY KEY (slot, seq)
                ) STRICT, WITHOUT ROWID;
                """
        )
    }

    /// The league row: a file that already holds state (written before leagues) is the default league's; a new file
    /// is given its league when it is first opened (`SQLiteClientStateStore.open`).
    private static func addLeague(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE league (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    slug TEXT NOT NULL
                ) STRICT;
                INSERT INTO league (id, slug)
                    SELECT 1, 'default' WHERE EXISTS (SELECT 1 FROM slots) OR EXISTS (SELECT 1 FROM replica);
                """
        )
    }
}
