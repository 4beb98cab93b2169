import GRDB
public import GoalModel

/// The history index (migration `v3-changeset-entities`): one row per (entity, revision that wrote it), so an
/// entity's history is an index range scan instead of a scan of the log. Rows are written in the transaction that
/// writes their log rows (`SQLiteWriter`) and deleted with them (`prune`). `kind` is `EntityKindCode`'s number.
enum SQLiteHistorySchema {
    /// Creates the table and fills it from the retained log: each stored frame's `changes` (JSON text; the frame is
    /// the exact changeset message) names the players and matches that revision wrote. Ratings are left out.
    static func createChangesetEntities(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE changeset_entities (
                    kind INTEGER NOT NULL CHECK (kind IN (0, 1)),
                    entity_id TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    PRIMARY KEY (kind, entity_id, revision)
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX changeset_entities_revision ON changeset_entities (revision);
                INSERT OR IGNORE INTO changeset_entities (kind, entity_id, revision)
                SELECT CASE json_extract(change.value, '$.kind') WHEN 'player' THEN 0 WHEN 'player_deleted' THEN 0
                        ELSE 1 END,
                    json_extract(change.value, '$.id'), changesets.revision
                FROM changesets, json_each(CAST(changesets.frame AS TEXT), '$.changes') AS change
                WHERE json_extract(change.value, '$.kind') IN ('player', 'player_deleted', 'match', 'match_deleted');
                """
        )
    }
}

/// The number `changeset_entities.kind` stores for each entity kind (SQLite and PostgreSQL alike). Constants only;
/// `Sendable`.
public enum EntityKindCode {
    public static let player: Int16 = 0
    public static let match: Int16 = 1

    /// The code of an entity's kind.
    public static func of(_ entity: EntityRef) -> Int16 {
        switch entity {
        case .player: player
        case .match: match
        }
    }
}
