import GoalModel
import GoalStore
import GoalWire
import NIOCore
import PostgresNIO

/// Writes one batch inside the caller's transaction: locks the league row (the one serialization point between
/// writers, `SELECT … FOR UPDATE`), checks contiguity with the stored head, then for each commit its log row and
/// entity effects in commit order, then the forgotten client records, the touched ones and the new head. Any
/// throw rolls the whole transaction back.
struct PostgresWriter {
    let connection: PostgresConnection

    func append(_ batch: StorageBatch) throws {
        guard let row = try connection.run("SELECT head_revision FROM league WHERE id = 1 FOR UPDATE").first else {
            throw StorageError.inconsistent("the league row is missing")
        }
        let head = try PostgresCoding.revision(try row.decode(Int64.self))
        var expected = head + 1
        for commit in batch.commits {
            guard commit.revision == expected else {
                throw StorageError.revisionGap(expected: expected, found: commit.revision)
            }
            expected += 1
        }
        for commit in batch.commits {
            try insertLogRow(commit)
            for change in commit.changeset.changes {
                try apply(change)
            }
        }
        for instance in batch.forgottenClients {
            try connection.execute("DELETE FROM client_records WHERE instance = \(instance.rawValue)")
        }
        try write(batch.clientRecords)
        if let last = batch.commits.last {
            let revision = PostgresCoding.integer(last.revision)
            let digest = ByteBuffer(bytes: last.changeset.digest.bytes)
            try connection.execute(
                "UPDATE league SET head_revision = \(revision), head_digest = \(digest) WHERE id = 1"
            )
        }
    }

    /// Inserts or replaces exactly-once records.
    func write(_ records: [ClientRecord]) throws {
        for record in records {
            let results = ByteBuffer(bytes: ClientResultsCoding.encode(record.results))
            let lastSeq = Int64(clamping: record.lastSeq)
            let lastUsed = record.lastUsed.millisecondsSince1970
            try connection.execute(
                """
                INSERT INTO client_records (instance, last_seq, results, last_used)
                VALUES (\(record.instance.rawValue), \(lastSeq), \(results), \(lastUsed))
                ON CONFLICT (instance) DO UPDATE
                SET last_seq = excluded.last_seq, results = excluded.results, last_used = excluded.last_used
                """
            )
        }
    }

    func insertLogRow(_ commit: LoggedCommit) throws {
        let changeset = commit.changeset
        let revision = PostgresCoding.integer(changeset.revision)
        let digest = ByteBuffer(bytes: changeset.digest.bytes)
        let instance = changeset.mutationID?.instance.rawValue
        let seq = changeset.mutationID.map { Int64(clamping: $0.seq) }
        let frame = ByteBuffer(bytes: commit.frame)
        try connection.execute(
            """
            INSERT INTO changesets (revision, author, time, digest, client_instance, seq, frame)
            VALUES (\(revision), \(changeset.author), \(changeset.time.millisecondsSince1970), \(digest),
                \(instance), \(seq), \(frame))
            """
        )
    }

    private func apply(_ change: Change) throws {
        switch change {
        case .playerUpserted(let player):
            try upsert(player)
        case .playerDeleted(let id):
            try connection.execute("DELETE FROM players WHERE id = \(id.description)")
        case .matchUpserted(let match):
            try upsert(match)
        case .matchDeleted(let id):
            // match_players rows go with it (ON DELETE CASCADE).
            try connection.execute("DELETE FROM matches WHERE id = \(id.description)")
        case .ratingUpdated:
            break  // derived from matches; rebuilt on recovery
        }
    }

    func upsert(_ player: Player) throws {
        let createdRev = PostgresCoding.integer(player.created.revision)
        let nameRev = PostgresCoding.integer(player.nameStamp.revision)
        try connection.execute(
            """
            INSERT INTO players (id, name, name_key, created_rev, created_by, name_rev, name_by)
            VALUES (\(player.id.description), \(player.name), \(player.nameKey), \(createdRev),
                \(player.created.writer.rawValue), \(nameRev), \(player.nameStamp.writer.rawValue))
            ON CONFLICT (id) DO UPDATE SET
                name = excluded.name, name_key = excluded.name_key,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                name_rev = excluded.name_rev, name_by = excluded.name_by
            """
        )
    }

    func upsert(_ match: Match) throws {
        let stamps = match.stamps
        func rev(_ stamp: FieldStamp) -> Int64 { PostgresCoding.integer(stamp.revision) }
        try connection.execute(
            """
            INSERT INTO matches (id, home_goals, away_goals, created_rev, created_by,
                home_players_rev, home_players_by, away_players_rev, away_players_by,
                home_goals_rev, home_goals_by, away_goals_rev, away_goals_by)
            VALUES (\(match.id.description), \(Int32(clamping: match.homeGoals)), \(Int32(clamping: match.awayGoals)),
                \(rev(match.created)), \(match.created.writer.rawValue),
                \(rev(stamps.homePlayers)), \(stamps.homePlayers.writer.rawValue),
                \(rev(stamps.awayPlayers)), \(stamps.awayPlayers.writer.rawValue),
                \(rev(stamps.homeGoals)), \(stamps.homeGoals.writer.rawValue),
                \(rev(stamps.awayGoals)), \(stamps.awayGoals.writer.rawValue))
            ON CONFLICT (id) DO UPDATE SET
                home_goals = excluded.home_goals, away_goals = excluded.away_goals,
                created_rev = excluded.created_rev, created_by = excluded.created_by,
                home_players_rev = excluded.home_players_rev, home_players_by = excluded.home_players_by,
                away_players_rev = excluded.away_players_rev, away_players_by = excluded.away_players_by,
                home_goals_rev = excluded.home_goals_rev, home_goals_by = excluded.home_goals_by,
                away_goals_rev = excluded.away_goals_rev, away_goals_by = excluded.away_goals_by
            """
        )
        try writePlayers(of: match)
    }

    /// Rewrites a match's player lists (side 0 home, 1 away; position keeps the author's order) unless they are
    /// unchanged, which is the common case (goal edits).
    private func writePlayers(of match: Match) throws {
        let id = match.id.description
        let stored = try connection.run(
            "SELECT side, player_id FROM match_players WHERE match_id = \(id) ORDER BY side, position"
        ).map { row in
            let (side, player) = try row.decode((Int16, String).self)
            return "\(side):\(player)"
        }
        let wanted = match.homePlayers.map { "0:\($0)" } + match.awayPlayers.map { "1:\($0)" }
        guard stored != wanted else { return }
        try connection.execute("DELETE FROM match_players WHERE match_id = \(id)")
        for (side, players) in [(Int16(0), match.homePlayers), (Int16(1), match.awayPlayers)] {
            for (position, player) in players.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO match_players (match_id, side, position, player_id)
                    VALUES (\(id), \(side), \(Int32(position)), \(player.description))
                    """
                )
            }
        }
    }
}
