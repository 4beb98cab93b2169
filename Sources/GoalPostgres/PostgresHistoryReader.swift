import GoalModel
import GoalStore
import NIOCore
import PostgresNIO

/// Reads one page of an entity's history inside the caller's read-only REPEATABLE READ transaction (one snapshot:
/// the index rows, their frames and the bounds agree).
enum PostgresHistoryReader {
    static func page(
        _ connection: PostgresConnection,
        of entity: EntityRef,
        before: Revision?,
        limit: Int
    ) throws -> HistoryPage {
        let bounds = try PostgresReader.bounds(connection)
        let below = before.map(PostgresCoding.integer) ?? Int64.max
        let kind = EntityKindCode.of(entity)
        let rows = try connection.run(
            """
            SELECT changesets.revision, changesets.frame
            FROM changeset_entities JOIN changesets ON changesets.revision = changeset_entities.revision
            WHERE changeset_entities.kind = \(kind) AND changeset_entities.entity_id = \(entity.id)
                AND changeset_entities.revision < \(below)
            ORDER BY changeset_entities.revision DESC LIMIT \(Int64(max(0, limit)))
            """
        )
        var frames: [LogFrame] = []
        for row in rows {
            let (revision, frame) = try row.decode((Int64, ByteBuffer).self)
            frames.append(LogFrame(revision: try PostgresCoding.revision(revision), bytes: PostgresCoding.bytes(frame)))
        }
        let exists: Bool
        switch entity {
        case .player:
            exists = try !connection.run("SELECT 1 FROM players WHERE id = \(entity.id)").isEmpty
        case .match:
            exists = try !connection.run("SELECT 1 FROM matches WHERE id = \(entity.id)").isEmpty
        }
        return HistoryPage(
            frames: frames,
            oldestRetainedRevision: bounds.oldestRetainedRevision,
            head: bounds.head,
            exists: exists
        )
    }
}
