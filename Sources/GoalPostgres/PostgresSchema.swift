import GoalModel
import GoalStore
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations recorded in `goald_schema`. Never edit a shipped migration: add
/// one. The tables mean what SQLite's do (`SQLiteSchema`): the league row (epoch, head, head digest), entities,
/// the changeset log with each frame's exact bytes, the exactly-once table, tokens.
///
/// Several nodes may start at once: the migrations run in one transaction under a transaction-level advisory
/// lock, so one node creates the schema and the others find it done. Every league's schema gets the same
/// migrations (`PostgresLeagueNamespace`); its `tokens`, `goald_nodes` and `goald_leagues` stay empty (the home
/// schema's are the database's).
enum PostgresSchema {
    /// Every migration, in order; the index + 1 is its version.
    static let migrations: [(name: String, sql: [String])] = [
        (
            "v1-league",
            [
                """
                CREATE TABLE league (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    epoch TEXT NOT NULL,
                    head_revision BIGINT NOT NULL CHECK (head_revision >= 0),
                    head_digest BYTEA NOT NULL CHECK (length(head_digest) = 32)
                )
                """,
                """
                CREATE TABLE players (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    -- Deferred: a batch writes its players' final states in one statement, so two players
                    -- swapping names within a batch must not collide halfway.
                    name_key TEXT NOT NULL CONSTRAINT players_name_key UNIQUE DEFERRABLE INITIALLY DEFERRED,
                    created_rev BIGINT NOT NULL,
                    created_by TEXT NOT NULL,
                    name_rev BIGINT NOT NULL,
                    name_by TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE matches (
                    id TEXT PRIMARY KEY,
                    home_goals INTEGER NOT NULL,
                    away_goals INTEGER NOT NULL,
                    created_rev BIGINT NOT NULL,
                    created_by TEXT NOT NULL,
                    home_players_rev BIGINT NOT NULL,
                    home_players_by TEXT NOT NULL,
                    away_players_rev BIGINT NOT NULL,
                    away_players_by TEXT NOT NULL,
                    home_goals_rev BIGINT NOT NULL,
                    home_goals_by TEXT NOT NULL,
                    away_goals_rev BIGINT NOT NULL,
                    away_goals_by TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE match_players (
                    match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                    side SMALLINT NOT NULL CHECK (side IN (0, 1)),
                    position INTEGER NOT NULL,
                    player_id TEXT NOT NULL REFERENCES players (id),
                    PRIMARY KEY (match_id, side, position)
                )
                """,
                "CREATE INDEX match_players_player ON match_players (player_id)",
                """
                CREATE TABLE changesets (
                    revision BIGINT PRIMARY KEY,
                    author TEXT NOT NULL,
                    time BIGINT NOT NULL,
                    digest BYTEA NOT NULL CHECK (length(digest) = 32),
                    client_instance TEXT,
                    seq BIGINT,
                    frame BYTEA NOT NULL
                )
                """,
                "CREATE INDEX changesets_time ON changesets (time)",
                """
                CREATE TABLE client_records (
                    instance TEXT PRIMARY KEY,
                    last_seq BIGINT NOT NULL,
                    results BYTEA NOT NULL,
                    last_used BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE tokens (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL,
                    secret_hash BYTEA NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
                    created BIGINT NOT NULL,
                    revoked BIGINT
                )
                """,
            ]
        ),
        (
            "v2-versions",
            [
                // Every batch bumps `version`, commits or not, and stamps the client records it writes with it: a node
                // reads the records other nodes changed since the version it knows (exactly once across nodes).
                "ALTER TABLE league ADD COLUMN version BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE client_records ADD COLUMN version BIGINT NOT NULL DEFAULT 0",
                "CREATE INDEX client_records_version ON client_records (version)",
            ]
        ),
        (
            "v3-changeset-entities",
            [
                // The history index: one row per (entity, revision that wrote it); `kind` is `EntityKindCode`'s
                // number. Written with the log rows (`goald_append`), deleted with them (`prune`).
                """
                CREATE TABLE changeset_entities (
                    kind SMALLINT NOT NULL CHECK (kind IN (0, 1)),
                    entity_id TEXT NOT NULL,
                    revision BIGINT NOT NULL,
                    PRIMARY KEY (kind, entity_id, revision)
                )
                """,
                "CREATE INDEX changeset_entities_revision ON changeset_entities (revision)",
                // Filled from the retained log: each stored frame is the exact changeset message (JSON text).
                """
                INSERT INTO changeset_entities (kind, entity_id, revision)
                SELECT DISTINCT CASE change->>'kind' WHEN 'player' THEN 0 WHEN 'player_deleted' THEN 0 ELSE 1 END,
                    change->>'id', changesets.revision
                FROM changesets,
                    jsonb_array_elements(convert_from(changesets.frame, 'UTF8')::jsonb -> 'changes') AS change
                WHERE change->>'kind' IN ('player', 'player_deleted', 'match', 'match_deleted')
                """,
            ]
        ),
        // One statement per batch: the league row is locked only while `goald_append` runs.
        ("v4-append-function", [PostgresAppendFunction.createChanges, PostgresAppendFunction.create]),
        // The batch in its notification, so the other nodes need not read it (`PostgresHeadNotice`).
        ("v5-append-notice", [PostgresAppendFunction.createWithNotice]),
        (
            "v6-node-claims",
            [
                // Who holds each node id (`PostgresNodeClaim`): the advisory lock says whether it is held; this row,
                // written by the holder, only names it for a node that is refused.
                """
                CREATE TABLE IF NOT EXISTS goald_nodes (
                    node_id TEXT PRIMARY KEY,
                    holder TEXT NOT NULL,
                    claimed_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """
            ]
        ),
        (
            "v7-leagues",
            [
                // A token's league grants (`LeagueGrantsText`); '' for a token of every league, as every token before.
                "ALTER TABLE tokens ADD COLUMN IF NOT EXISTS leagues TEXT NOT NULL DEFAULT ''",
                // The other leagues (`PostgresLeagueStorage+Leagues.swift`), each in its own schema; a row for
                // `default` only once it was renamed. Made in every schema, read only in the home one.
                """
                CREATE TABLE IF NOT EXISTS goald_leagues (
                    slug TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    created BIGINT NOT NULL
                )
                """,
            ]
        ),
        (
            "v8-functions-in-their-schema",
            [
                // `goald_append` and `goald_changes` run in the schema they were made in whatever the caller's
                // `search_path`, so a node writes several leagues in one statement on one connection
                // (`PostgresAppendRound`). A connection of one league's store already has that path: no change there.
                """
                DO $goald$
                DECLARE f regprocedure;
                BEGIN
                    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
                        WHERE p.proname IN ('goald_append', 'goald_changes')
                            AND p.pronamespace = to_regnamespace(current_schema())::oid
                    LOOP
                        EXECUTE format('ALTER FUNCTION %s SET search_path FROM CURRENT', f);
                    END LOOP;
                END
                $goald$
                """
            ]
        ),
    ]

    /// The channel a committing transaction notifies with its new version (delivered at commit).
    static let headChannel = "goald_head"

    /// The channel goald nodes tell each other about presence on (`PostgresPresenceBus`; never logged or stored).
    static let presenceChannel = "goald_presence"

    /// An arbitrary constant: the advisory lock every goald takes while it migrates.
    static let migrationLock: Int64 = 0x676F_616C_6473_6368

    /// Creates or upgrades the schema of `namespace` (the connection's `search_path` says where); a database whose
    /// schema is newer than this goald is refused.
    static func migrate(
        _ connection: PostgresConnection,
        epoch: LeagueEpoch,
        namespace: PostgresLeagueNamespace = .home
    ) throws {
        try connection.transaction { try migrateInTransaction(connection, epoch: epoch, namespace: namespace) }
    }

    /// `migrate`'s work inside a transaction the caller opened (`createLeague` adds a league's row and schema in the
    /// same one).
    static func migrateInTransaction(
        _ connection: PostgresConnection,
        epoch: LeagueEpoch,
        namespace: PostgresLeagueNamespace
    ) throws {
        try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS goald_schema (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """
        )
        let applied = try connection.run("SELECT COALESCE(MAX(version), 0) FROM goald_schema")
        let version = try applied.first?.decode(Int32.self) ?? 0
        guard Int(version) <= migrations.count else {
            throw StorageError.schemaTooNew(path: "PostgreSQL schema version \(version)")
        }
        for (index, migration) in migrations.enumerated() where index + 1 > Int(version) {
            for statement in migration.sql {
                try connection.execute(PostgresQuery(unsafeSQL: namespace.statement(statement)))
            }
            let number = Int32(index + 1)
            try connection.execute("INSERT INTO goald_schema (version, name) VALUES (\(number), \(migration.name))")
            if index == 0 {
                let genesis = ByteBuffer(bytes: Digest.genesis.bytes)
                try connection.execute(
                    "INSERT INTO league (id, epoch, head_revision, head_digest) VALUES (1, \(epoch.rawValue), 0, \(genesis))"
                )
            }
        }
    }
}
