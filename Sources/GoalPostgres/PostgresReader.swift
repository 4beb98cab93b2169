import GoalModel
import GoalStore
import GoalWire
import NIOCore
import PostgresNIO

/// The reads of a PostgreSQL store, each on a connection the caller holds; `recover` runs inside one
/// REPEATABLE READ transaction so it sees one consistent snapshot, as SQLite's read transaction does.
enum PostgresReader {
    static func bounds(_ connection: PostgresConnection) throws -> LogBounds {
        let rows = try connection.run(
            """
            SELECT head_revision, head_digest,
                (SELECT MIN(revision) FROM changesets), (SELECT MAX(revision) FROM changesets)
            FROM league WHERE id = 1
            """
        )
        guard let row = rows.first else { throw StorageError.inconsistent("the league row is missing") }
        let (head, digest, oldest, newest) = try row.decode((Int64, ByteBuffer, Int64?, Int64?).self)
        let revision = try PostgresCoding.revision(head)
        if let newest, newest != head {
            throw StorageError.inconsistent("the log ends at revision \(newest) but the head is \(head)")
        }
        return LogBounds(
            oldestRetainedRevision: try oldest.map(PostgresCoding.revision),
            head: revision,
            headDigest: try PostgresCoding.digest(digest)
        )
    }

    static func epoch(_ connection: PostgresConnection) throws -> LeagueEpoch {
        guard let row = try connection.run("SELECT epoch FROM league WHERE id = 1").first else {
            throw StorageError.inconsistent("the league row is missing")
        }
        return LeagueEpoch(rawValue: try row.decode(String.self))
    }

    static func recover(_ connection: PostgresConnection) throws -> DurableLeague {
        try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            let bounds = try bounds(connection)
            let epoch = try epoch(connection)
            let state: LeagueState
            do {
                state = try LeagueState(
                    revision: bounds.head,
                    players: try players(connection),
                    matches: try matches(connection),
                    clientRecords: try clientRecords(connection)
                )
            } catch let error as LeagueStateError {
                throw StorageError.rebuildFailed(error)
            }
            return DurableLeague(
                state: state,
                headDigest: bounds.headDigest,
                epoch: epoch,
                oldestRetainedRevision: bounds.oldestRetainedRevision,
                version: try head(connection).version
            )
        }
    }

    private static func players(_ connection: PostgresConnection) throws -> [Player] {
        try connection.run("SELECT id, name, name_key, created_rev, created_by, name_rev, name_by FROM players")
            .map { row in
                let (id, name, key, createdRev, createdBy, nameRev, nameBy) = try row.decode(
                    (String, String, String, Int64, String, Int64, String).self
                )
                return Player(
                    id: try PostgresCoding.playerID(id),
                    name: name,
                    nameKey: key,
                    created: try PostgresCoding.stamp(createdRev, createdBy),
                    nameStamp: try PostgresCoding.stamp(nameRev, nameBy)
                )
            }
    }

    private static func matches(_ connection: PostgresConnection) throws -> [Match] {
        var sides: [String: ([PlayerID], [PlayerID])] = [:]
        for row in try connection.run(
            "SELECT match_id, side, player_id FROM match_players ORDER BY match_id, side, position"
        ) {
            let (id, side, player) = try row.decode((String, Int16, String).self)
            let playerID = try PostgresCoding.playerID(player)
            if side == 0 {
                sides[id, default: ([], [])].0.append(playerID)
            } else {
                sides[id, default: ([], [])].1.append(playerID)
            }
        }
        return try connection.run(
            """
            SELECT id, home_goals, away_goals, created_rev, created_by,
                home_players_rev, home_players_by, away_players_rev, away_players_by,
                home_goals_rev, home_goals_by, away_goals_rev, away_goals_by
            FROM matches
            """
        ).map { row in
            let columns = try row.decode(
                (String, Int32, Int32, Int64, String, Int64, String, Int64, String, Int64, String, Int64, String).self
            )
            let (home, away) = sides[columns.0] ?? ([], [])
            return Match(
                id: try PostgresCoding.matchID(columns.0),
                homePlayers: home,
                awayPlayers: away,
                homeGoals: Int(columns.1),
                awayGoals: Int(columns.2),
                created: try PostgresCoding.stamp(columns.3, columns.4),
                stamps: MatchStamps(
                    homePlayers: try PostgresCoding.stamp(columns.5, columns.6),
                    awayPlayers: try PostgresCoding.stamp(columns.7, columns.8),
                    homeGoals: try PostgresCoding.stamp(columns.9, columns.10),
                    awayGoals: try PostgresCoding.stamp(columns.11, columns.12)
                )
            )
        }
    }

    /// The head revision and version, unlocked.
    static func head(_ connection: PostgresConnection) throws -> StoreHead {
        guard let row = try connection.run("SELECT head_revision, version FROM league WHERE id = 1").first else {
            throw StorageError.inconsistent("the league row is missing")
        }
        let (revision, version) = try row.decode((Int64, Int64).self)
        return StoreHead(revision: try PostgresCoding.revision(revision), version: version)
    }

    /// What was written after `base`: one call of `goald_changes`, so one statement and one consistent snapshot.
    static func changes(_ connection: PostgresConnection, after base: StoreHead) throws -> ForeignChanges {
        guard
            let row = try connection.run(
                "SELECT * FROM goald_changes(\(PostgresCoding.integer(base.revision)), \(base.version))"
            ).first
        else {
            throw StorageError.inconsistent("the league row is missing")
        }
        return try foreignChanges(in: row.makeRandomAccess(), after: base)
    }

    /// What was written after `base`, from a row with `goald_changes`'s columns (`goald_append` answers them too
    /// when it refuses a batch): the head, the log frames after `base.revision` and the records written after
    /// `base.version`.
    /// - Throws: `StorageError.backlogPruned` when the frames do not reach back to `base`; `.inconsistent` when the
    ///   log has a hole or a frame is not its changeset.
    static func foreignChanges(in cells: PostgresRandomAccessRow, after base: StoreHead) throws -> ForeignChanges {
        let head = StoreHead(
            revision: try PostgresCoding.revision(try cells["head_revision"].decode(Int64.self)),
            version: try cells["head_version"].decode(Int64.self)
        )
        let revisions = try cells["later_revisions"].decode([Int64].self)
        let frames = try logFrames(
            Array(zip(revisions, try cells["later_frames"].decode([ByteBuffer].self))),
            after: base.revision
        )
        guard frames.count == Int(max(0, head.revision - base.revision)) else {
            if frames.isEmpty { throw StorageError.backlogPruned(after: base.revision, oldest: nil) }
            throw StorageError.inconsistent(
                "the log holds \(frames.count) changesets after revision \(base.revision), not up to \(head.revision)"
            )
        }
        let commits = try frames.map { frame throws(StorageError) in
            try PostgresCoding.commit(of: frame, in: "the store")
        }
        let instances = try cells["later_instances"].decode([String].self)
        let lastSeqs = try cells["later_last_seqs"].decode([Int64].self)
        let results = try cells["later_results"].decode([ByteBuffer].self)
        let lastUsed = try cells["later_last_used"].decode([Int64].self)
        guard lastSeqs.count == instances.count, results.count == instances.count, lastUsed.count == instances.count
        else { throw StorageError.inconsistent("the client records read have columns of uneven lengths") }
        let records = try instances.indices.map { index throws(StorageError) in
            try clientRecord(
                instance: instances[index],
                lastSeq: lastSeqs[index],
                results: PostgresCoding.bytes(results[index]),
                lastUsed: lastUsed[index]
            )
        }
        return ForeignChanges(commits: commits, clientRecords: records, head: head)
    }

    private static func clientRecords(
        _ connection: PostgresConnection,
        writtenAfter version: StoreVersion = -1
    ) throws -> [ClientRecord] {
        try connection.run(
            "SELECT instance, last_seq, results, last_used FROM client_records WHERE version > \(version)"
        ).map { row in
            let (instance, lastSeq, results, lastUsed) = try row.decode((String, Int64, ByteBuffer, Int64).self)
            return try clientRecord(
                instance: instance,
                lastSeq: lastSeq,
                results: PostgresCoding.bytes(results),
                lastUsed: lastUsed
            )
        }
    }

    /// One `client_records` row as a record (`results` as stored: `ClientResultsCoding`'s JSON).
    static func clientRecord(
        instance: String,
        lastSeq: Int64,
        results: [UInt8],
        lastUsed: Int64
    ) throws(StorageError) -> ClientRecord {
        let id = try PostgresCoding.instance(instance)
        let entries: [ClientRecord.Entry]
        do {
            entries = try ClientResultsCoding.decode(results)
        } catch {
            throw StorageError.inconsistent("the exactly-once record of \(id) cannot be decoded: \(error)")
        }
        return ClientRecord(
            instance: id,
            lastSeq: UInt64(clamping: lastSeq),
            results: entries,
            lastUsed: Timestamp(millisecondsSince1970: lastUsed)
        )
    }

    static func backlog(
        _ connection: PostgresConnection,
        after: Revision,
        upTo: Revision,
        limit: Int
    ) throws -> [LogFrame] {
        let bounds = try bounds(connection)
        let last = min(upTo, bounds.head)
        guard after < last, limit > 0 else { return [] }
        guard let oldest = bounds.oldestRetainedRevision, after + 1 >= oldest else {
            throw StorageError.backlogPruned(after: after, oldest: bounds.oldestRetainedRevision)
        }
        return try frames(connection, after: after, through: last, limit: limit)
    }

    /// The log's frames in (after, last], in order, at most `limit`; throws when the log skips a revision. Fewer
    /// than asked means the log no longer holds them (pruned).
    private static func frames(
        _ connection: PostgresConnection,
        after: Revision,
        through last: Revision,
        limit: Int = Int(Int64.max)
    ) throws -> [LogFrame] {
        let from = PostgresCoding.integer(after)
        let to = PostgresCoding.integer(last)
        let rows = try connection.run(
            """
            SELECT revision, frame FROM changesets WHERE revision > \(from) AND revision <= \(to)
            ORDER BY revision LIMIT \(Int64(limit))
            """
        )
        return try logFrames(rows.map { try $0.decode((Int64, ByteBuffer).self) }, after: after)
    }

    /// Stored (revision, frame) pairs in revision order as log frames, checked to follow `after` without a hole.
    /// - Throws: `StorageError.backlogPruned` when the first does not follow `after`; `.inconsistent` for a hole.
    private static func logFrames(_ rows: [(Int64, ByteBuffer)], after: Revision) throws(StorageError) -> [LogFrame] {
        var frames: [LogFrame] = []
        var expected = after + 1
        for (stored, frame) in rows {
            let revision = try PostgresCoding.revision(stored)
            guard revision == expected else {
                if frames.isEmpty { throw StorageError.backlogPruned(after: after, oldest: revision) }
                throw StorageError.inconsistent("the log skips from revision \(expected - 1) to \(revision)")
            }
            frames.append(LogFrame(revision: revision, bytes: PostgresCoding.bytes(frame)))
            expected += 1
        }
        return frames
    }
}
