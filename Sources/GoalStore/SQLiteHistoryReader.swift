import Foundation
import GRDB
import GoalModel

/// Reads one page of an entity's history on a reader connection, inside the read transaction GRDB opens for it
/// (one snapshot: the index rows, their frames and the bounds agree).
enum SQLiteHistoryReader {
    static func page(_ db: Database, of entity: EntityRef, before: Revision?, limit: Int) throws -> HistoryPage {
        let bounds = try SQLiteReader.bounds(db)
        let below = before.map(SQLiteCoding.integer) ?? Int64.max
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT changesets.revision, changesets.frame
                    FROM changeset_entities JOIN changesets ON changesets.revision = changeset_entities.revision
                    WHERE changeset_entities.kind = ? AND changeset_entities.entity_id = ?
                        AND changeset_entities.revision < ?
                    ORDER BY changeset_entities.revision DESC LIMIT ?
                    """
            ),
            arguments: [EntityKindCode.of(entity), entity.id, below, max(0, limit)]
        )
        var frames: [LogFrame] = []
        for row in rows {
            let revision = try SQLiteCoding.revision(try row.decode(Int64.self, atIndex: 0))
            frames.append(LogFrame(revision: revision, bytes: [UInt8](try row.decode(Data.self, atIndex: 1))))
        }
        let table =
            switch entity {
            case .player: "players"
            case .match: "matches"
            }
        let exists = try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)",
            arguments: [
                entity.id
            ]
        )
        return HistoryPage(
            frames: frames,
            oldestRetainedRevision: bounds.oldestRetainedRevision,
            head: bounds.head,
            exists: exists ?? false
        )
    }
}
