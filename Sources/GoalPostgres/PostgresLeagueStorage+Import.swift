import Foundation
public import GoalModel
public import GoalStore
import GoalWire
import NIOCore
import PostgresNIO

extension PostgresLeagueStorage {
    /// Copies a whole league into this store, which must be empty (revision 0, no token): the retained log with
    /// each frame's exact bytes, the entities, the exactly-once records, the tokens, the head, its digest and the
    /// epoch, so clients of the source resume here without a snapshot. One transaction: all or nothing.
    ///
    /// - Parameters:
    ///   - league: The source's durable league (`recover()`).
    ///   - tokens: The source's tokens.
    ///   - frames: Pages of the source's log: called with the last revision copied (the oldest retained − 1 at
    ///     first) until it returns no frame.
    /// - Throws: `StorageError.inconsistent` when this store is not empty or a frame cannot be read; a write error.
    public func importLeague(
        _ league: DurableLeague,
        tokens: [StoredToken],
        frames: (_ after: Revision) throws(StorageError) -> [LogFrame]
    ) throws(StorageError) {
        try writer.withConnection("importLeague") { connection in
            try connection.transaction {
                let bounds = try PostgresReader.bounds(connection)
                let tokenCount = try connection.run("SELECT count(*) FROM tokens").first?.decode(Int64.self) ?? 0
                guard bounds.head == 0, tokenCount == 0 else {
                    throw StorageError.inconsistent(
                        "the target already holds a league (revision \(bounds.head), \(tokenCount) tokens); migrate "
                            + "into an empty database"
                    )
                }
                var last = (league.oldestRetainedRevision ?? league.head + 1) - 1
                while true {
                    let page = try frames(last)
                    guard !page.isEmpty else { break }
                    var commits: [LoggedCommit] = []
                    for frame in page {
                        guard frame.revision == last + 1 else {
                            throw StorageError.inconsistent("the source log skips from \(last) to \(frame.revision)")
                        }
                        commits.append(try PostgresCoding.commit(of: frame, in: "the source"))
                        last = frame.revision
                    }
                    _ = try PostgresAppendCall(
                        StorageBatch(commits: commits),
                        entities: EntityEffects(),
                        onto: nil,
                        newVersion: 1,
                        movesHead: false
                    ).run(connection)
                }
                guard league.oldestRetainedRevision == nil || last == league.head else {
                    throw StorageError.inconsistent("the source log ends at \(last), its head is \(league.head)")
                }
                var entities = EntityEffects()
                for player in league.state.allPlayers { entities.add(.playerUpserted(player)) }
                for match in league.state.allMatches { entities.add(.matchUpserted(match)) }
                _ = try PostgresAppendCall(
                    StorageBatch(clientRecords: Array(league.state.allClientRecords)),
                    entities: entities,
                    onto: nil,
                    newVersion: 1,
                    movesHead: false
                ).run(connection)
                for token in tokens { try Self.insert(token, on: connection) }
                let head = PostgresCoding.integer(league.head)
                let digest = ByteBuffer(bytes: league.headDigest.bytes)
                try connection.execute(
                    """
                    UPDATE league SET epoch = \(league.epoch.rawValue), head_revision = \(head), head_digest = \(digest),
                        version = 1
                    WHERE id = 1
                    """
                )
            }
        }
    }
}
