import Foundation
import GRDB
import GoalModel
import OrderedCollections

/// Writes one batch inside the writer's transaction: checks contiguity with the stored head, then for each
/// commit its log row and entity effects, then the forgotten client records, the touched ones and the new head.
/// Any throw rolls the whole transaction back.
///
/// Entity effects keep commit order, so every statement sees a valid league (SQLite checks the foreign keys and
/// the unique name key per statement), with one exception: a match upsert waits (`PendingMatchUpserts`) until the
/// batch ends or a player is deleted, and a match edited by several commits of the batch is written once, in its
/// last state. A batch under contention is hundreds of goal edits of a few matches; writing each edit's whole row
/// and player slots cost 13 % of goald's CPU (docs/BENCHMARKS.md). Waiting is safe: no statement but a player's
/// deletion depends on a match's row (its slots may still name that player), and the player's own rows, the log
/// and the index stay in order.
struct SQLiteWriter {
    let db: Database

    init(_ db: Database) { self.db = db }

    func append(_ batch: StorageBatch) throws {
        let head = try SQLiteCoding.revision(
            try Int64.fetchOne(db, sql: "SELECT head_revision FROM league WHERE id = 1") ?? 0
        )
        var expected = head + 1
        for commit in batch.commits {
            guard commit.revision == expected else {
                throw StorageError.revisionGap(expected: expected, found: commit.revision)
            }
            expected += 1
        }
        var pending = PendingMatchUpserts()
        for commit in batch.commits {
            try insertLogRow(commit)
            for change in commit.changeset.changes {
                try apply(change, pending: &pending)
            }
        }
        try write(&pending)
        if !batch.forgottenClients.isEmpty {
            let delete = try db.cachedStatement(sql: "DELETE FROM client_records WHERE instance = ?")
            for instance in batch.forgottenClients {
                try delete.execute(arguments: [instance.rawValue])
            }
        }
        if !batch.clientRecords.isEmpty {
            try writeClientRecords(batch.clientRecords)
        }
        if let last = batch.commits.last {
            try db.cachedStatement(sql: "UPDATE league SET head_revision = ?, head_digest = ? WHERE id = 1")
                .execute(arguments: [
                    SQLiteCoding.integer(last.revision), SQLiteCoding.blob(last.changeset.digest.bytes),
                ])
        }
    }

    private func insertLogRow(_ commit: LoggedCommit) throws {
        let changeset = commit.changeset
        try db.cachedStatement(
            sql: """
                INSERT INTO changesets (revision, author, time, digest, client_instance, seq, frame)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        )
        .execute(arguments: [
            SQLiteCoding.integer(changeset.revision),
            changeset.author,
            changeset.time.millisecondsSince1970,
            SQLiteCoding.blob(changeset.digest.bytes),
            changeset.mutationID?.instance.rawValue,
            changeset.mutationID.map { Int64(clamping: $0.seq) },
            SQLiteCoding.blob(commit.frame),
        ])
        let index = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO changeset_entities (kind, entity_id, revision) VALUES (?, ?, ?)"
        )
        for entity in EntityRef.written(by: changeset.changes) {
            try index.execute(arguments: [
                EntityKindCode.of(entity), entity.id, SQLiteCoding.integer(changeset.revision),
            ])
        }
    }

    private func apply(_ change: Change, pending: inout PendingMatchUpserts) throws {
        switch change {
        case .playerUpserted(let player):
            try upsert(player)
        case .playerDeleted(let id):
            try write(&pending)  // a waiting match may be the edit that stopped naming this player
            try db.cachedStatement(sql: "DELETE FROM players WHERE id = ?").execute(arguments: [id.description])
        case .matchUpserted(let match):
            pending.latest[match.id] = match
        case .matchDeleted(let id):
            pending.latest[id] = nil
            // match_players rows go with it (ON DELETE CASCADE).
            try db.cachedStatement(sql: "DELETE FROM matches WHERE id = ?").execute(arguments: [id.description])
        case .ratingUpdated:
            break  // derived from matches; rebuilt on recovery
        }
    }

    /// Writes the waiting match upserts, each match once in its latest state, in the order they first waited.
    private func write(_ pending: inout PendingMatchUpserts) throws {
        for match in pending.latest.values { try upsert(match) }
        pending.latest.removeAll(keepingCapacity: true)
    }

    private func upsert(_ player: Player) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO players (id, name, name_key, created_rev, created_by, name_rev, name_by)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    name = excluded.name, name_key = excluded.name_key,
                    created_rev = excluded.created_rev, created_by = excluded.created_by,
                    name_rev = excluded.name_rev, name_by = excluded.name_by
                """
        )
        .execute(arguments: [
            player.id.description, player.name, player.nameKey,
            SQLiteCoding.integer(player.created.revision), player.created.writer.rawValue,
            SQLiteCoding.integer(player.nameStamp.revision), player.nameStamp.writer.rawValue,
        ])
    }

    private func upsert(_ match: Match) throws {
        let stamps = match.stamps
        var arguments: StatementArguments = [
            match.id.description, match.homeGoals, match.awayGoals,
            SQLiteCoding.integer(match.created.revision), match.created.writer.rawValue,
        ]
        for stamp in [stamps.homePlayers, stamps.awayPlayers, stamps.homeGoals, stamps.awayGoals] {
            arguments += [SQLiteCoding.integer(stamp.revision), stamp.writer.rawValue]
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO matches (id, home_goals, away_goals, created_rev, created_by,
                    home_players_rev, home_players_by, away_players_rev, away_players_by,
                    home_goals_rev, home_goals_by, away_goals_rev, away_goals_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    home_goals = excluded.home_goals, away_goals = excluded.away_goals,
                    created_rev = excluded.created_rev, created_by = excluded.created_by,
                    home_players_rev = excluded.home_players_rev, home_players_by = excluded.home_players_by,
                    away_players_rev = excluded.away_players_rev, away_players_by = excluded.away_players_by,
                    home_goals_rev = excluded.home_goals_rev, home_goals_by = excluded.home_goals_by,
                    away_goals_rev = excluded.away_goals_rev, away_goals_by = excluded.away_goals_by
                """
        )
        .execute(arguments: arguments)
        try writePlayers(of: match)
    }

    /// Rewrites a match's player lists (side 0 home, 1 away; position keeps the author's order) unless they
    /// are unchanged, which is the common case (goal edits).
    private func writePlayers(of match: Match) throws {
        let stored = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT side, player_id FROM match_players WHERE match_id = ? ORDER BY side, position"
            ),
            arguments: [match.id.description]
        )
        let current = stored.map { row in "\(row[0] as Int64):\(row[1] as String)" }
        let wanted = match.homePlayers.map { "0:\($0)" } + match.awayPlayers.map { "1:\($0)" }
        guard current != wanted else { return }
        try db.cachedStatement(sql: "DELETE FROM match_players WHERE match_id = ?").execute(arguments: [
            match.id.description
        ])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO match_players (match_id, side, position, player_id) VALUES (?, ?, ?, ?)"
        )
        for (side, players) in [(0, match.homePlayers), (1, match.awayPlayers)] {
            for (position, player) in players.enumerated() {
                try insert.execute(arguments: [match.id.description, side, position, player.description])
            }
        }
    }

    private func writeClientRecords(_ records: [ClientRecord]) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO client_records (instance, last_seq, results, last_used) VALUES (?, ?, ?, ?)
                ON CONFLICT (instance) DO UPDATE
                SET last_seq = excluded.last_seq, results = excluded.results, last_used = excluded.last_used
                """
        )
        for record in records {
            try statement.execute(arguments: [
                record.instance.rawValue, Int64(clamping: record.lastSeq),
                ClientRecordCoding.encode(record), record.lastUsed.millisecondsSince1970,
            ])
        }
    }
}

/// The match upserts of a batch not yet written: each match's latest state. Value type, local to one `append`.
struct PendingMatchUpserts {
    var latest: OrderedDictionary<MatchID, Match> = [:]
}
